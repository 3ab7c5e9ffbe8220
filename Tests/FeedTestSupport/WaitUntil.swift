import Foundation

/// Checks `condition` every `interval` seconds until it holds or `timeout` seconds have passed;
/// whether it held. How tests wait for what a child process, a server or a worker does: for the
/// condition, with a deadline, never for a fixed time. Sleeps with `Task.sleep`, so no thread is
/// held meanwhile; `condition` is checked once more at the deadline.
/// ```swift
/// #expect(try await waitUntil(timeout: 10) { server.stderr.contains("GET /videos") })
/// ```
/// - Throws: what `condition` throws, and `CancellationError` when the task is cancelled.
/// `condition` runs in the caller's isolation (an actor's method may pass one that reads its
/// state).
@discardableResult
public func waitUntil(timeout: Double, every interval: Double = 0.05, isolation: isolated (any Actor)? = #isolation,
                      _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: .seconds(interval))
    }
}
