/// How many jobs a queue holds in each state, and how many of the queued ones are due: what its
/// operator watches (`feed serve`'s `/metrics`). A queued job that is not due waits out a
/// retry's backoff (a webhook delivery whose endpoint failed waits up to an hour), so "queued
/// and none running" alone does not mean the workers are gone; "due and none running" does.
public struct JobCounts: Sendable, Equatable {
    /// Every state, 0 for those with no job.
    public var byState: [Job.State: Int]
    /// Queued jobs whose `run_at` has come: a worker would take them now.
    public var due: Int

    /// Counts from a catalog's `GROUP BY state` rows (a state this version does not know is
    /// left out) and its count of due jobs.
    public init(rows: [(state: String, count: Int)], due: Int) {
        var byState: [Job.State: Int] = [:]
        for row in rows { if let state = Job.State(rawValue: row.state) { byState[state] = row.count } }
        self.init(byState: byState, due: due)
    }

    /// Counts as given, every state named.
    public init(byState: [Job.State: Int], due: Int) {
        self.byState = Dictionary(uniqueKeysWithValues: Job.State.allCases.map { ($0, byState[$0] ?? 0) })
        self.due = due
    }
}
