import FeedCore

/// Long blocking work (packaging a recording as HLS, decoding a poster frame) on a thread made
/// for it: not on the Swift concurrency pool, whose few threads must stay free for requests and
/// lease renewals, and not on Dispatch's shared threads (``BlockingExecutor``'s, for short
/// blocking steps), which several packagings of a minute each would hold.
enum OwnThread {
    /// Runs `work` on a new thread named `name` and returns what it returns (or throws what it
    /// throws) once that thread has ended.
    static func run<T: Sendable>(_ name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        var thread: JoinableThread?
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            thread = JoinableThread(name: name) { continuation.resume(returning: Result { try work() }) }
        }
        // The work has returned; what is left is the thread's own exit, a matter of microseconds.
        thread?.join()
        return try result.get()
    }
}
