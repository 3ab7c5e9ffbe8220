import Foundation

/// A worker's hold on a running job: proof, by its `token`, that this worker and no other may
/// renew, report progress on and complete it. A token is fresh on every claim, so a worker
/// whose lease expired (paused, cut off) and was taken over can no longer change the job.
public struct JobLease: Sendable, Equatable {
    /// The job as it was claimed (state `running`).
    public var job: Job
    /// The claim's secret.
    public var token: String
    /// The job's id.
    public var id: Int64 { job.id }

    /// A lease on `job` under `token`.
    public init(job: Job, token: String) {
        self.job = job
        self.token = token
    }
}
