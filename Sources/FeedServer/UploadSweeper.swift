import FeedCore
import ServiceLifecycle

/// The uploads' housekeeping, as a service of the server's group: at start it finishes the
/// uploads a crash left complete but not yet in the roll, then removes expired ones; after
/// that it removes expired ones every quarter of the expiry (a minute at most) until the
/// server stops.
struct UploadSweeper: Service {
    let store: UploadStore

    /// Time between two sweeps.
    var interval: Duration { .seconds(min(60, max(1, store.expiry / 4))) }

    func run() async throws {
        let store = self.store, interval = self.interval
        await withTaskExecutorPreference(BlockingExecutor.shared) {
            _ = await store.recover()
            store.expire()
        }
        while true {
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) } } catch { return }
            _ = await withTaskExecutorPreference(BlockingExecutor.shared) { store.expire() }
        }
    }
}
