import Synchronization

/// Bytes of a response body, counted as they are written (from the writer's task, and by a
/// file sent with `sendfile` beside it).
final class ByteCount: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
