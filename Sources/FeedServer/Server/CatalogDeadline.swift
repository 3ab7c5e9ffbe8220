import FeedCore

/// How `/healthz` and `/metrics` wait for the catalog: `--catalog-timeout` (3 s), under the
/// 10 s a load balancer's check or a Prometheus scrape gives up after, so they answer "the
/// catalog is down" instead of timing out (PostgreSQL's own calls wait up to 30 s while it is away).
enum CatalogDeadline {
    /// The catalog did not answer in time.
    struct Exceeded: Error, CustomStringConvertible {
        let seconds: Double
        var description: String { "no answer within \(seconds) s" }
    }

    /// What `body` returns, or ``Exceeded`` once `seconds` have passed; `body` then runs on,
    /// unawaited, to its own end.
    static func run<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let waiting = Locked<CheckedContinuation<Result<T, any Error>, Never>?>(nil)
        @Sendable func finish(_ result: Result<T, any Error>) {
            waiting.withLock { continuation in
                continuation?.resume(returning: result)
                continuation = nil
            }
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            waiting.withLock { $0 = continuation }
            Task {
                do { finish(.success(try await body())) } catch { finish(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                finish(.failure(Exceeded(seconds: seconds)))
            }
        }
        return try result.get()
    }
}
