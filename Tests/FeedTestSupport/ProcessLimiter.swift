import Foundation

/// At most `permits` short-lived child processes at once in the whole test process: a FIFO
/// semaphore for async code (no thread blocks, no busy waiting; a waiter is resumed when a
/// permit is handed to it).
///
/// Why: the end-to-end tests no longer block the cooperative pool while a child runs, so
/// nothing else bounds how many `feed`, ffmpeg and python processes run at once. On a 2-core
/// machine dozens of them would make time-sensitive tests time out and memory spike.
///
/// The limit is `activeProcessorCount + 1` (3 on 2 cores), or `FEED_TEST_PROCESSES` when that
/// is a positive integer. ``ChildProcess/start(_:)`` and ``ChildProcess/run(_:limited:)`` take a
/// permit for each child and give it back at its exit, so a test never holds one itself.
/// Long-lived servers and workers (`ServeProcess`, `WorkerProcess`, the test HTTP servers) never
/// hold one: held for their lifetime, a few of them would leave none for the runs their tests
/// make, and the suite would dead-lock. Quick looks at such a server mid-job (curl, `feed jobs`)
/// take none either (`limited: false`), so that no queue delays them. Waiting for a permit
/// ignores task cancellation: every holder gives its permit back when its child exits.
/// ```swift
/// let child = try await ChildProcess.run(process)   // waits for a permit, runs, gives it back
/// ```
public actor ProcessLimiter {
    /// The limiter every helper that runs a short-lived child process shares.
    public static let shared = ProcessLimiter(permits: defaultPermits)

    /// `FEED_TEST_PROCESSES` when it is a positive integer, else the active processor count + 1.
    public static var defaultPermits: Int {
        if let text = ProcessInfo.processInfo.environment["FEED_TEST_PROCESSES"], let count = Int(text), count > 0 {
            return count
        }
        return ProcessInfo.processInfo.activeProcessorCount + 1
    }

    /// How many holders at once, at most.
    public nonisolated let permits: Int
    private var free: Int
    /// Waiters in arrival order; the first is resumed by the next release.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A limiter of `permits` (at least 1).
    public init(permits: Int) {
        self.permits = max(1, permits)
        free = self.permits
    }

    /// Takes a permit, waiting (suspended) behind those who asked first when none is free.
    public func acquire() async {
        if free > 0 && waiting.isEmpty {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a permit back: straight to the longest waiter, if any.
    public func release() {
        if waiting.isEmpty {
            free = min(permits, free + 1)
        } else {
            waiting.removeFirst().resume()
        }
    }
}
