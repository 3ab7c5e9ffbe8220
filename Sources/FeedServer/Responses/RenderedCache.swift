import FeedCore
import NIOCore

/// Response bodies already rendered, by a key that names everything they depend on (for feed
/// responses: the client's base URL and the query). The feed is loaded once, so a body never
/// goes stale; the cache holds at most `capacity` bodies and forgets the oldest half when full,
/// so a client varying `Host` or the query cannot grow it.
final class RenderedCache: Sendable {
    private struct Entries {
        var bodies: [String: ByteBuffer] = [:]
        var order: [String] = []
    }

    private let entries = Locked(Entries())
    private let capacity: Int

    init(capacity: Int = 64) { self.capacity = capacity }

    /// The body cached under `key`, or the one `render` makes (then cached).
    func body(for key: String, render: () throws -> [UInt8]) rethrows -> ByteBuffer {
        if let hit = entries.withLock({ $0.bodies[key] }) { return hit }
        let body = ByteBuffer(bytes: try render())
        entries.withLock { entries in
            guard entries.bodies.updateValue(body, forKey: key) == nil else { return }
            entries.order.append(key)
            if entries.order.count > capacity {
                let dropped = entries.order.prefix(capacity / 2)
                for old in dropped { entries.bodies[old] = nil }
                entries.order.removeFirst(dropped.count)
            }
        }
        return body
    }
}
