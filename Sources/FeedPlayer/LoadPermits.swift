import FeedCore
/// The fixed number of players a ``PlayerWindow`` may have open at once, and the loads
/// waiting for one.
///
/// A load takes a permit before it calls the factory and gives it back when its player is
/// closed (or the load ends without one). A cancelled load keeps its permit until it has
/// finished, so even loads the user swiped past count: the bound on live players is exact.
/// A released permit goes to the waiting load with the best priority (the current item
/// before the next one before the previous one), first come first served among equals.
struct LoadPermits {
    private struct Waiter {
        var token: UInt64
        var position: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private(set) var free: Int
    private var waiters: [Waiter] = []

    init(count: Int) {
        free = count
    }

    /// Takes a free permit if there is one.
    mutating func take() -> Bool {
        guard free > 0 else { return false }
        free -= 1
        return true
    }

    /// Queues a load; its continuation is resumed when it is granted a permit, or with
    /// `CancellationError` when the load is cancelled first.
    mutating func enqueue(token: UInt64, position: Int, continuation: CheckedContinuation<Void, any Error>) {
        waiters.append(Waiter(token: token, position: position, continuation: continuation))
    }

    /// Gives a permit back: to the best waiter (lowest `priority(position)`), or to the pool.
    mutating func release(priority: (Int) -> Int) {
        guard let best = waiters.indices.min(by: { priority(waiters[$0].position) < priority(waiters[$1].position) }) else {
            free += 1
            return
        }
        waiters.remove(at: best).continuation.resume()
    }

    /// Drops the waiting load with `token`, if it is waiting, failing it with `CancellationError`.
    mutating func cancel(token: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.token == token }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
