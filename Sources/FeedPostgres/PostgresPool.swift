import PostgresNIO

/// One connection pool of the catalog: a `PostgresClient`, the ``PoolWatch`` on its
/// connections, and the means to end it alone when a new pool takes its place.
final class PostgresPool: Sendable {
    let client: PostgresClient
    let watch: PoolWatch
    private let retirement = AsyncStream<Void>.makeStream()

    /// A pool connecting as `configuration` says; nothing connects until ``run()``.
    init(_ configuration: PostgresClient.Configuration) {
        let watch = PoolWatch()
        self.watch = watch
        client = PostgresClient(configuration: configuration, backgroundLogger: watch.logger)
    }

    /// Runs the pool until ``retire()`` or until the calling task is cancelled; either ends its
    /// connections, and calls still waiting for one fail (`poolShutdown`).
    func run() async {
        await withTaskGroup(of: Void.self) { [client, stream = retirement.stream] group in
            group.addTask { await client.run() }
            group.addTask { for await _ in stream {} }
            await group.next()
            group.cancelAll()
        }
    }

    /// Ends ``run()``.
    func retire() {
        retirement.continuation.finish()
    }
}
