import Foundation

/// The live streams of a catalog, with their rules written once for the CLI and the server:
/// creating one (a title, a fresh key), reading and paging them, ending one, giving it a new key.
/// Owner checks are the caller's (as for recordings): these take an owner filter, not a caller.
public struct LiveStreams: Sendable {
    /// Where the rows are.
    public let store: any LiveStreamStore
    /// The time streams are created and ended at (tests move it).
    let clock: @Sendable () -> Date

    /// The longest title, in Unicode scalars (as JSON Schema's `maxLength` counts: an emoji with
    /// a skin tone is two).
    public static let maxTitleLength = 200

    /// The streams of `store`; `clock` gives the times written.
    public init(store: any LiveStreamStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
    }

    /// A new idle stream titled `title`, owned by `owner`, with a fresh key.
    /// - Throws: ``LiveError/invalidTitle(_:)``, ``LiveError/roll(_:)``.
    public func create(title: String, owner: String? = nil) async throws(LiveError) -> LiveStream {
        let title = try Self.checked(title)
        let stream = LiveStream(title: title, streamKey: StreamKey.make(), owner: owner, createdAt: clock())
        do { return try await store.insertLiveStream(stream) } catch { throw .roll(error) }
    }

    /// Stream `id`.
    /// - Throws: ``LiveError/notFound(id:)``, ``LiveError/roll(_:)``.
    public func stream(id: Int64) async throws(LiveError) -> LiveStream {
        let found: LiveStream?
        do { found = try await store.liveStream(id: id) } catch { throw .roll(error) }
        guard let found else { throw .notFound(id: id) }
        return found
    }

    /// A page of streams, newest first: ids below `before`, `limit` at most (0: all), only
    /// `owner`'s when given.
    public func page(before: Int64? = nil, limit: Int = 0, ownedBy owner: String? = nil) async throws(LiveError) -> [LiveStream] {
        do { return try await store.liveStreams(before: before, limit: limit <= 0 ? Int.max : limit, ownedBy: owner) } catch { throw .roll(error) }
    }

    /// Ends stream `id` for good (an ended one stays as it was): its publisher, if any, is
    /// disconnected by the server that holds it.
    /// - Throws: ``LiveError/notFound(id:)``, ``LiveError/roll(_:)``.
    public func end(id: Int64) async throws(LiveError) -> LiveStream {
        try await ending(id: id).stream
    }

    /// ``end(id:)``, also saying whether this call ended it (false: it had ended already), so
    /// that `live.ended` is told once.
    public func ending(id: Int64) async throws(LiveError) -> (stream: LiveStream, changed: Bool) {
        while true {
            var current = try await stream(id: id)
            guard current.state != .ended else { return (current, false) }
            let before = current.state
            current.state = .ended
            current.endedAt = clock()
            // Lost a race (a publisher was accepted meanwhile): read again and end that.
            if try await update(current, ifState: before) { return (current, true) }
        }
    }

    /// Gives stream `id` a new key; the old one stops working for the next publish (a publisher
    /// already accepted goes on).
    /// - Throws: ``LiveError/notFound(id:)``, ``LiveError/ended(id:)``, ``LiveError/roll(_:)``.
    public func rotateKey(id: Int64) async throws(LiveError) -> LiveStream {
        while true {
            var current = try await stream(id: id)
            guard current.state != .ended else { throw .ended(id: id) }
            let before = current.state
            current.streamKey = StreamKey.make()
            if try await update(current, ifState: before) { return current }
        }
    }

    private func update(_ stream: LiveStream, ifState expected: LiveStream.State) async throws(LiveError) -> Bool {
        do { return try await store.updateLiveStream(stream, ifState: expected) } catch { throw .roll(error) }
    }

    /// `title` trimmed, or why it cannot be one: checked as sent (its length, no control
    /// character, a newline included), as openapi.yaml's schema says.
    static func checked(_ title: String) throws(LiveError) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidTitle("must not be empty") }
        // Counted as sent, spaces included, as openapi.yaml's maxLength counts.
        let length = title.unicodeScalars.count
        guard length <= maxTitleLength else { throw .invalidTitle("\(length) characters, at most \(maxTitleLength)") }
        guard !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidTitle("must not hold control characters")
        }
        return trimmed
    }
}
