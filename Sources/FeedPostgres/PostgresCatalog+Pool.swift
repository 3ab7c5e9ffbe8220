import FeedCore
import PostgresNIO

/// A pool stuck after an outage, and its replacement.
///
/// PostgresNIO's pool waits longer after each failed attempt to connect (100 ms × 1.25ⁿ, up to a
/// minute, not configurable), and only its next attempt finds the database back: after an outage
/// of a minute or more, every call (and `/healthz`) failed for up to a minute more. While the pool
/// is stuck (its last attempt failed, no connection open), the catalog connects on its own every
/// `poolRecheck` (a second); once that works, a new pool takes the old one's place at once and the
/// old one is ended. Nothing runs on the old pool then, so nothing is cut; a call that was still
/// waiting for one of its connections is made again on the new pool.
extension PostgresCatalog {
    /// Runs the pool in use, and each that replaces it, until the calling task is cancelled.
    func runPools() async {
        await withDiscardingTaskGroup { group in
            var current = pool.withLock { $0 }
            group.addTask { [current] in await current.run() }
            while !Task.isCancelled {
                await current.watch.stuck()
                while !Task.isCancelled, current.watch.isStuck {
                    if (try? await probe()) != nil, current.watch.isStuck {
                        let fresh = PostgresPool(configuration)
                        group.addTask { await fresh.run() }
                        pool.withLock { $0 = fresh }
                        current.retire()
                        current = fresh
                        break
                    }
                    try? await Task.sleep(for: Self.poolRecheck)
                }
            }
        }
    }

    /// What `body` returns with the pool in use; when that pool was replaced while the call waited
    /// for a connection (it never reached the database), `body` once more with the new one.
    func withClient<T>(_ body: (PostgresClient) async throws -> T) async throws -> T {
        let client = self.client
        do {
            return try await body(client)
        } catch where Self.isPoolShutdown(error) && !isClosed {
            let now = self.client
            guard now !== client else { throw error }
            return try await body(now)
        }
    }

    /// Whether `error` is the pool's "shut down".
    static func isPoolShutdown(_ error: any Error) -> Bool {
        poolErrorText(error)?.contains("poolShutdown") == true
    }
}
