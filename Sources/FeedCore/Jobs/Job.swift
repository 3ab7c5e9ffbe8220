import Foundation

/// A unit of background work (a stack, an HLS packaging, a poster frame), kept as a row so
/// that it survives a restart and can be taken by any worker that shares the catalog.
public struct Job: Sendable, Equatable {
    /// Where a job is in its life.
    ///
    /// `queued` → `running` (a worker holds its lease) → `done` | `failed` (the work itself
    /// failed: bad input, refused sync) | `cancelled`. A running job whose lease expires goes
    /// back to `queued` after a backoff, or to `dead` once it has been tried `maxAttempts` times.
    public enum State: String, Sendable, Codable, CaseIterable {
        case queued, running, done, failed, cancelled, dead

        /// Whether the job can change no more (but by an explicit retry).
        public var isFinal: Bool { self == .done || self == .failed || self == .cancelled || self == .dead }
    }

    /// Stable id, never reused.
    public var id: Int64
    /// What kind of work (see ``JobKind``).
    public var kind: String
    /// Its current state.
    public var state: State
    /// The request as JSON text (for a stack: front, back, options).
    public var request: String
    /// 0…1 while running.
    public var progress: Double
    /// The recording the job produced, once done (stack jobs).
    public var recordingID: Int64?
    /// Why it failed, or the last lease that expired.
    public var error: String?
    /// When it was queued and last changed.
    public var createdAt: Date
    public var updatedAt: Date
    /// How many times a worker has claimed it.
    public var attempts: Int
    /// Claims allowed before a job whose leases keep expiring is `dead`.
    public var maxAttempts: Int
    /// Not claimed before this time (a backoff after an expired lease).
    public var runAt: Date
    /// When its latest claim began.
    public var startedAt: Date?
    /// Who holds (or last held) it: `host:pid`.
    public var worker: String?
    /// When the current lease ends unless renewed (running jobs only).
    public var leaseExpiresAt: Date?
    /// The user who queued it (`feed serve`'s JWT `sub`); nil for the server's own. The
    /// recording it makes is theirs.
    public var owner: String?

    /// A job with every field given.
    public init(id: Int64 = 0, kind: String, state: State = .queued, request: String, progress: Double = 0,
                recordingID: Int64? = nil, error: String? = nil, createdAt: Date = Date(), updatedAt: Date = Date(),
                attempts: Int = 0, maxAttempts: Int = JobPolicy.defaultMaxAttempts, runAt: Date? = nil, startedAt: Date? = nil,
                worker: String? = nil, leaseExpiresAt: Date? = nil, owner: String? = nil) {
        self.id = id
        self.kind = kind
        self.state = state
        self.request = request
        self.progress = progress
        self.recordingID = recordingID
        self.error = error
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.runAt = runAt ?? createdAt
        self.startedAt = startedAt
        self.worker = worker
        self.leaseExpiresAt = leaseExpiresAt
        self.owner = owner
    }

    /// The request, typed.
    /// - Throws: ``JobError/unknownKind(_:)`` for a kind this feed does not run (a newer
    ///   feed's), ``JobError/malformed(kind:_:)`` for a request it cannot read.
    public func typedRequest() throws(JobError) -> JobRequest {
        try JobRequest(kind: kind, json: request)
    }

}

/// The kinds of job a worker runs.
public enum JobKind: String, Sendable, Codable, CaseIterable {
    /// Stack two recordings (or finished uploads) into a new recording.
    case stack
    /// Package a recording's HLS ladder into the roll's cache.
    case hls
    /// Make a recording's poster frame in the roll's cache.
    case thumb
    /// Nothing: done as soon as it is claimed (queue health checks and benchmarks).
    case noop
    /// Deliver one webhook event to one endpoint, retried until it answers 2xx or a day passes.
    case webhook
    /// Train the For You model from the events (`feed recs train`, and every
    /// `--recs-train-interval` seconds on a server).
    case recsTrain = "recs.train"
}
