import FeedCore
import Foundation

/// Tasks waiting for a notification or their timeout, whichever comes first.
final class Wakeups: Sendable {
    private struct State {
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        /// A wake-up came while no one waited: the next wait returns at once.
        var missed = false
        /// Waits cancelled before they were registered: they return at once.
        var cancelled: Set<UUID> = []
    }
    private let waiting = Locked(State())

    /// Waits up to `timeout` seconds, or until ``wakeAll()``, or until the calling task is
    /// cancelled; at once when a wake-up came while no one waited. The timer is a child task,
    /// ended before this returns: no task outlives the wait.
    func wait(timeout: Double) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForWake(id) }
            group.addTask { try? await Task.sleep(for: .seconds(max(0, timeout))) }
            // Whichever ends first, the other is cancelled (a waiter's cancel resumes it).
            await group.next()
            group.cancelAll()
        }
        waiting.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Waits until ``wakeAll()`` or until cancelled; at once when a wake-up was missed.
    private func waitForWake(_ id: UUID) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = waiting.withLock { state -> Bool in
                    if state.cancelled.remove(id) != nil { return true }
                    if state.missed {
                        state.missed = false
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let continuation = waiting.withLock { state in
                guard let continuation = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return CheckedContinuation<Void, Never>?.none
                }
                return continuation
            }
            continuation?.resume()
        }
    }

    /// Resumes every waiter.
    func wakeAll() {
        let all = waiting.withLock { state in
            defer { state.waiters = [:] }
            if state.waiters.isEmpty { state.missed = true }
            return state.waiters
        }
        for continuation in all.values { continuation.resume() }
    }
}
