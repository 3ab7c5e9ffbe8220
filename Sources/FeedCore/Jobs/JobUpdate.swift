/// What a ``JobStore/cancel(id:)`` or ``JobStore/retry(id:)`` call did: the job as it is now,
/// and whether this call is the one that changed it. Of several callers racing on one job,
/// exactly one sees `changed`; the others see the job as that one left it.
public struct JobUpdate: Sendable, Equatable {
    /// The job as the update left it (when `changed`), else as it was found.
    public let job: Job
    /// True when this call moved the job (to `cancelled`, or back to `queued`).
    public let changed: Bool

    /// An update's outcome: `job` as read after it, `changed` when this call made the change.
    public init(job: Job, changed: Bool) {
        self.job = job
        self.changed = changed
    }
}
