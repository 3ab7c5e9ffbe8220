import Dispatch

/// A task executor whose jobs run on Dispatch's global threads, not on the Swift concurrency
/// pool: async work that blocks (writing and fsyncing upload bytes, FFmpeg probes, SHA-256 of
/// a large file inside `Roll.add`) runs under `withTaskExecutorPreference(BlockingExecutor.shared)`
/// so the pool's few threads stay free for requests. Long synchronous work (FFmpeg packaging)
/// takes a thread of its own instead: ``OwnThread``.
final class BlockingExecutor: TaskExecutor, Sendable {
    static let shared = BlockingExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
