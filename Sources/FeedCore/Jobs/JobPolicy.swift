/// The queue's rules, stated once for every catalog: how many claims a job gets, how long it
/// waits after a lease that ran out, and what its row says about it. A catalog only persists
/// what these decide (see ``JobStore/takeBack(_:deciding:)``).
public enum JobPolicy {
    /// Claims before a job is `dead` unless the request says otherwise.
    public static let defaultMaxAttempts = 5

    /// The claims a job is allowed when queued with `requested`: at least one.
    public static func maxAttempts(_ requested: Int) -> Int { max(1, requested) }

    /// Seconds a job waits before its next claim after `attempts` claims whose leases expired:
    /// 1, 2, 4, … capped at 60.
    public static func backoff(afterAttempts attempts: Int) -> Double {
        min(60, Double(1 << min(max(attempts - 1, 0), 6)))
    }

    /// What becomes of a running job whose lease lapsed (expired, or its worker is known to be
    /// gone): back to the queue after ``backoff(afterAttempts:)``, or `dead` once it has had
    /// its claims; its error names the worker and the attempt.
    public static func afterLapse(_ lapsed: LapsedLease) -> LapsedLease.Outcome {
        let worker = lapsed.worker ?? "?"
        return LapsedLease.Outcome(
            state: lapsed.attempts >= lapsed.maxAttempts ? .dead : .queued,
            delay: backoff(afterAttempts: lapsed.attempts),
            error: "lease held by \(worker) expired (attempt \(lapsed.attempts) of \(lapsed.maxAttempts))")
    }
}

/// A running job whose lease lapsed, as a catalog read it inside the transaction that will
/// take it back.
public struct LapsedLease: Sendable, Equatable {
    public var id: Int64
    /// Claims so far (the lapsed one included) and allowed.
    public var attempts: Int
    public var maxAttempts: Int
    /// Who held it (`host:pid`), when known.
    public var worker: String?

    public init(id: Int64, attempts: Int, maxAttempts: Int, worker: String?) {
        self.id = id
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.worker = worker
    }

    /// What the job becomes: its state (`queued` or `dead`), seconds before its next claim
    /// (from now), and the error its row keeps.
    public struct Outcome: Sendable, Equatable {
        public var state: Job.State
        public var delay: Double
        public var error: String

        public init(state: Job.State, delay: Double, error: String) {
            self.state = state
            self.delay = delay
            self.error = error
        }
    }

    /// Which running jobs are taken back.
    public enum Selection: Sendable, Equatable {
        /// Those whose lease has expired by the catalog's clock.
        case expired
        /// Those held by one of these workers (processes known to be gone).
        case heldBy([String])
    }
}
