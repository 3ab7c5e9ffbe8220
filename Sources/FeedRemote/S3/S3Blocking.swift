import FeedCore
import Foundation

/// Runs the object store's async calls for ``MediaStore``'s synchronous methods. The calls run
/// as tasks on threads of their own (a ``BlockingPool`` as their executor), never on Swift's
/// cooperative pool, so a caller blocked here (on the roll's blocking pool, or briefly on the
/// cooperative pool) never waits for a thread it is itself holding.
final class S3Blocking: Sendable {
    private let pool = BlockingPool(name: "feed.s3", threads: 4)

    /// `body`'s result, waiting for it on this thread.
    func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () async throws(E) -> T) throws(E) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<T, E>?>(nil)
        Task(executorPreference: pool) {
            do throws(E) {
                let value = try await body()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Ends the pool's threads.
    func shutdown() { pool.shutdown() }
}
