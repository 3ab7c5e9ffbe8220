/// Long blocking work (stacking two videos, packaging a recording as HLS, decoding a poster
/// frame) run from async code on a thread made for it: not on the Swift concurrency pool, whose
/// few threads must stay free for requests and lease renewals, and not on Dispatch's shared
/// threads (the server's `BlockingExecutor`, for short blocking steps), which several minute-long
/// jobs would hold.
package enum OwnThread {
    /// Runs `work` on a new thread named `name` and returns what it returns (or throws what it
    /// throws) once that thread has ended.
    package static func run<T: Sendable, E: Error>(_ name: String, _ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        var thread: JoinableThread?
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
            thread = JoinableThread(name: name) { continuation.resume(returning: Result { () throws(E) -> T in try work() }) }
        }
        // The work has returned; what is left is the thread's own exit, a matter of microseconds.
        thread?.join()
        return try result.get()
    }
}
