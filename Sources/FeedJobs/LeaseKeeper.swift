import FeedCore

/// Keeps one attempt's lease: renews it every third of its length while the work runs and,
/// once a renewal finds it lost (expired and taken back, cancelled), raises `lost` and cancels
/// the work, which then stops and discards what it made.
struct LeaseKeeper: Sendable {
    let jobs: any JobStore
    let lease: JobLease
    /// Seconds a lease lasts without renewal.
    let seconds: Double

    /// Starts renewing; cancel the returned task when the work ends.
    func keep(lost: StopFlag, work: Task<Recording?, any Error>) -> Task<Void, Never> {
        Task { [jobs, lease, seconds] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(seconds / 3))
                if Task.isCancelled { break }
                if (try? await jobs.renew(lease, for: seconds)) == false {
                    lost.set()
                    work.cancel()
                    break
                }
            }
        }
    }
}
