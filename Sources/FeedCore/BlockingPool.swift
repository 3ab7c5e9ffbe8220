import Foundation

/// The one way feed's async code leaves Swift's concurrency pool for blocking work: a fixed
/// number of threads of its own, taking work first in, first out.
///
/// The concurrency pool has as many threads as cores (two here), and every request, lease
/// renewal and timer needs one; FFmpeg work (stacking, HLS packaging, a poster frame) blocks
/// a thread for milliseconds to minutes, and file steps (fsync, hashing) for as long as the disk
/// takes. So that work runs here: ``run(_:)`` for a synchronous body, or as a `TaskExecutor`
/// (`withTaskExecutorPreference(pool)`) for async code whose steps block. The bound is the
/// point: `feed serve --jobs N` has one pool of N threads that stack jobs and HLS packagings
/// share, so N is how many of them run at once; the short media a request makes (a poster, a
/// storyboard, a fast-start copy) has a small pool of its own, so it never waits behind them.
///
/// Threads start as work arrives, up to `threads`, and stay until ``shutdown()``.
public final class BlockingPool: TaskExecutor, @unchecked Sendable {
    /// The threads' name (`feed.work`, shown by `top -H` and debuggers).
    public let name: String
    /// At most this many bodies run at once.
    public let threads: Int

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var queue: [@Sendable () -> Void] = []
    private var started: [JoinableThread] = []
    private var idle = 0
    private var stopping = false

    /// A pool of at most `threads` threads (at least one) named `name`.
    public init(name: String, threads: Int) {
        self.name = name
        self.threads = max(1, threads)
    }

    /// Runs `work` on one of the pool's threads, once one is free, and returns what it returns
    /// (or throws what it throws). A body that is queued runs even if the calling task is
    /// cancelled meanwhile: pass it a cancellation flag of its own where it can stop early.
    public func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
            submit { continuation.resume(returning: Result { () throws(E) -> T in try work() }) }
        }
        return try result.get()
    }

    /// Bodies waiting for a thread.
    package var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Runs `job` (a task's next step) on one of the pool's threads.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        submit { job.runSynchronously(on: executor) }
    }

    /// Lets queued work finish, then ends and joins every thread. Work submitted afterwards
    /// runs on a new thread of its own (not joined), so nothing waits forever.
    public func shutdown() {
        condition.lock()
        stopping = true
        let threads = started
        started = []
        condition.broadcast()
        condition.unlock()
        for thread in threads { thread.join() }
    }

    private func submit(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        if stopping {
            condition.unlock()
            _ = JoinableThread(name: name, body)
            return
        }
        queue.append(body)
        if idle == 0 && started.count < threads {
            started.append(JoinableThread(name: name) { [self] in work() })
        } else {
            condition.signal()
        }
        condition.unlock()
    }

    /// A thread's life: take the oldest body, run it, repeat; end once stopping and drained.
    private func work() {
        condition.lock()
        while true {
            if let body = queue.first {
                queue.removeFirst()
                condition.unlock()
                body()
                condition.lock()
                continue
            }
            if stopping { break }
            idle += 1
            condition.wait()
            idle -= 1
        }
        condition.unlock()
    }
}
