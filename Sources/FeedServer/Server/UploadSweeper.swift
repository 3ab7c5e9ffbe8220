import FeedCore
import ServiceLifecycle

/// The uploads' housekeeping, as a service of the server's group, until the server stops:
/// - every claim lease (10 s), it finishes the uploads a crash (of this server or another
///   sharing the catalog) left complete but not yet in the roll, once the dead request's claim
///   has run out;
/// - at start and then every quarter of the expiry (a minute at most), it removes expired ones.
struct UploadSweeper: Service {
    let store: UploadStore
    /// Where its blocking file steps run.
    let files: BlockingPool

    /// Time between two expiry sweeps.
    var interval: Double { min(60, max(1, store.expiry / 4)) }
    /// Time between two recoveries.
    var recoveryInterval: Double { min(interval, max(1, store.claimLease)) }

    func run() async throws {
        let store = self.store, interval = self.interval, tick = recoveryInterval
        var sinceExpiry = Double.infinity
        while true {
            let expiring = sinceExpiry >= interval
            await withTaskExecutorPreference(files) {
                _ = await store.recover()
                if expiring { await store.expire() }
            }
            sinceExpiry = expiring ? tick : sinceExpiry + tick
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(tick)) } } catch { return }
        }
    }
}
