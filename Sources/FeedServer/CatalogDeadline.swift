import FeedCore

/// How long `/healthz` and `/metrics` wait for the catalog: well under the 10 s a load
/// balancer's check or a Prometheus scrape gives up after, so they answer "the catalog is down"
/// instead of timing out (PostgreSQL's own calls wait up to 30 s while it is away).
enum CatalogDeadline {
    static let seconds: Double = 3

    /// The catalog did not answer within ``seconds``.
    struct Exceeded: Error, CustomStringConvertible {
        var description: String { "no answer within \(Int(CatalogDeadline.seconds)) s" }
    }

    /// What `body` returns, or ``Exceeded`` once `seconds` have passed; `body` then runs on,
    /// unawaited, to its own end.
    static func run<T: Sendable>(seconds: Double = seconds, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
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
                finish(.failure(Exceeded()))
            }
        }
        return try result.get()
    }
}
