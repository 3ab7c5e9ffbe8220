import Dispatch

/// Runs `body` with its task's jobs on a thread of its own (a serial dispatch queue, outside
/// Swift's cooperative pool), for a test that must act at once on what it watches: signal a
/// child in the middle of its work, send a request while another one runs.
///
/// Every test of the suite starts at once, and the pool's few threads (two on a 2-core machine)
/// run them in turn; a test that awaits is resumed behind all that work, seconds later when many
/// tests are busy. A child could finish the work the test meant to interrupt meanwhile. The
/// queue here runs only this task's jobs, so its awaits resume as soon as what they wait for
/// happens. Nothing blocks: the thread sleeps in the dispatch queue between jobs.
/// ```swift
/// try await promptly {
///     try await waitUntil(timeout: 60, every: 0.001) { home.storedFiles().count >= 2 || adder.hasExited }
///     adder.signal(SIGINT)
/// }
/// ```
public func promptly<T>(isolation: isolated (any Actor)? = #isolation,
                        _ body: () async throws -> T) async rethrows -> T {
    if #available(macOS 15.0, *) {
        return try await withTaskExecutorPreference(OwnQueueExecutor(), isolation: isolation, operation: body)
    } else {
        return try await body()
    }
}

/// A task executor over a serial dispatch queue of its own.
@available(macOS 15.0, *)
private final class OwnQueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "feed-tests.promptly")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
