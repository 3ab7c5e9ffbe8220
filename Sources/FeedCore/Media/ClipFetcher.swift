/// Turns a remote clip into a local file before a player opens it: `feed play`'s clip cache,
/// so a clip shown again (swiping back, or in a later run) is not downloaded again.
public protocol ClipFetcher: Sendable {
    /// A complete local copy of the http(s) clip at `url`: its path.
    func localFile(for url: String) async throws -> String
}
