/// Where live streams are kept (``LiveStream``): one row each, changed only by compare-and-set on
/// its state, so two servers never both accept a publisher for one stream, and an ended stream
/// stays ended. Each call is one atomic statement.
public protocol LiveStreamStore: Sendable {
    /// Adds `stream` (its `id` is ignored) and returns it with the id the catalog gave it.
    func insertLiveStream(_ stream: LiveStream) async throws(RollError) -> LiveStream

    /// Stream `id`, or nil.
    func liveStream(id: Int64) async throws(RollError) -> LiveStream?

    /// The stream whose key hashes to `keyHash` (``StreamKey/hash(_:)``), or nil.
    func liveStream(keyHash: String) async throws(RollError) -> LiveStream?

    /// Streams with ids below `before` (nil: from the newest), newest first, `limit` at most;
    /// only `owner`'s when it is given.
    func liveStreams(before: Int64?, limit: Int, ownedBy owner: String?) async throws(RollError) -> [LiveStream]

    /// Writes every field of `stream` but its id, owner and creation time, if its row is in
    /// state `expected`; whether it was.
    func updateLiveStream(_ stream: LiveStream, ifState expected: LiveStream.State) async throws(RollError) -> Bool

    /// Adds `count` to stream `streamID`'s hearts (an atomic increment: every server adds its own).
    func addLiveHearts(stream streamID: Int64, count: Int) async throws(RollError)

    /// Sets stream `streamID`'s viewer count (the server packaging it, as it counts them).
    func setLiveViewers(stream streamID: Int64, count: Int) async throws(RollError)

    /// Stores `comment` (its `id` is ignored) and returns it with its id.
    func addLiveComment(_ comment: LiveComment) async throws(RollError) -> LiveComment

    /// Stream `streamID`'s comments with ids above `after`, oldest first, `limit` at most: what
    /// an event stream reads each tick, only what is new.
    func liveComments(stream streamID: Int64, after: Int64, limit: Int) async throws(RollError) -> [LiveComment]

    /// Stream `streamID`'s comments with ids below `before` (nil: from the newest), newest first,
    /// `limit` at most: the chat a viewer joining late pages back through.
    func liveComments(stream streamID: Int64, before: Int64?, limit: Int) async throws(RollError) -> [LiveComment]
}

extension LiveStreamStore {
    /// Every stream, newest first (`feed live list` with no limit).
    public func liveStreams(ownedBy owner: String? = nil) async throws(RollError) -> [LiveStream] {
        try await liveStreams(before: nil, limit: Int.max, ownedBy: owner)
    }

    /// The stream whose key is `key`, compared in full in constant time; nil for a malformed
    /// key or one no stream has.
    public func liveStream(key: String) async throws(RollError) -> LiveStream? {
        guard StreamKey.isWellFormed(key), let found = try await liveStream(keyHash: StreamKey.hash(key)) else { return nil }
        return ConstantTime.equal(Array(found.streamKey.utf8), Array(key.utf8)) ? found : nil
    }
}
