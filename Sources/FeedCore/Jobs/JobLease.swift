import Foundation

/// A worker's hold on a running job: proof, by its `token`, that this worker and no other may
/// renew, report progress on and complete it. A token is fresh on every claim, so a worker
/// whose lease expired (paused, cut off) and was taken over can no longer change the job.
public struct JobLease: Sendable, Equatable {
    /// The job as it was claimed (state `running`).
    public var job: Job
    /// The attempt's own token: ``token(claim:job:)`` of the claim's random part and the job's id.
    public var token: String
    /// The job's id.
    public var id: Int64 { job.id }

    /// The token of job `id` in a claim whose own secret is `claim`. A claim of several jobs
    /// gives each its own token, so no two attempts ever share one: a runner tells its running
    /// attempts apart by their tokens.
    public static func token(claim: String, job id: Int64) -> String { "\(claim).\(id)" }

    /// A lease on `job` under `token`.
    public init(job: Job, token: String) {
        self.job = job
        self.token = token
    }
}
