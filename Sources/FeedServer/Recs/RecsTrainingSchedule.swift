import FeedCore
import FeedRecs
import Foundation
import ServiceLifecycle

/// Queues a `recs.train` job every `interval` seconds when the newest model is that old (or
/// there is none and there are events) and no `recs.train` job is queued or running: so with
/// several servers on one catalog, one trains (whichever runner claims the job) and all serve
/// the version it stores. Serving never waits for it.
struct RecsTrainingSchedule: Service {
    let roll: Roll
    let store: any RecsStore
    let interval: Double
    let log: (@Sendable (String) -> Void)?
    /// The time now (tests drive it).
    var clock: @Sendable () -> Date = { Date() }

    func run() async throws {
        // A first look soon after start, then one every quarter interval (at most a minute apart).
        let step = min(max(interval / 4, 1), 60)
        do {
            try await cancelWhenGracefulShutdown {
                try await Task.sleep(for: .seconds(min(step, 5)))
                while !Task.isCancelled {
                    _ = try? await queueIfDue()
                    try await Task.sleep(for: .seconds(step))
                }
            }
        } catch is CancellationError {}
    }

    /// Queues a training if one is due; returns the job queued, if any.
    func queueIfDue() async throws -> Job? {
        let now = clock().timeIntervalSince1970
        if let latest = try await store.latestModel() {
            guard now - latest.trainedAt >= interval else { return nil }
        } else {
            guard try await store.eventCount() > 0 else { return nil }
        }
        for state in [Job.State.queued, .running] {
            if try await !roll.catalog.jobs(state: state, kind: .recsTrain, limit: 1, ownedBy: nil).isEmpty { return nil }
        }
        let job = try await roll.catalog.enqueue(.recsTrain, maxAttempts: 1, owner: nil)
        log?("job \(job.id): recs.train queued (the model is due every \(Int(interval)) s)")
        return job
    }
}
