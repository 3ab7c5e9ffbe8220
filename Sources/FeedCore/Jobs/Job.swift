import Foundation

/// A unit of background work (today: a stack), kept as a row so that it survives a restart.
public struct Job: Sendable, Equatable {
    /// Where a job is in its life.
    public enum State: String, Sendable, Codable, CaseIterable {
        case queued, running, done, failed, cancelled

        /// Whether the job can change no more.
        public var isFinal: Bool { self == .done || self == .failed || self == .cancelled }
    }

    /// Stable id, never reused.
    public var id: Int64
    /// What kind of work (`stack`).
    public var kind: String
    /// Its current state.
    public var state: State
    /// The request as JSON text (for a stack: front, back, options).
    public var request: String
    /// 0…1 while running.
    public var progress: Double
    /// The recording the job produced, once done.
    public var recordingID: Int64?
    /// Why it failed.
    public var error: String?
    /// When it was queued and last changed.
    public var createdAt: Date
    public var updatedAt: Date

    /// A job with every field given.
    public init(id: Int64 = 0, kind: String, state: State = .queued, request: String, progress: Double = 0,
                recordingID: Int64? = nil, error: String? = nil, createdAt: Date = Date(), updatedAt: Date = Date()) {
        self.id = id
        self.kind = kind
        self.state = state
        self.request = request
        self.progress = progress
        self.recordingID = recordingID
        self.error = error
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Where jobs are kept. ``SQLiteCatalog`` keeps them in the roll's database; every change is
/// one atomic call, so a crash leaves each job in one state.
public protocol JobStore: Sendable {
    /// Queues a new job and returns it with its id.
    func enqueue(kind: String, request: String) async throws(RollError) -> Job
    /// The job with this id, or nil.
    func job(id: Int64) async throws(RollError) -> Job?
    /// Takes the oldest queued job and marks it running, or returns nil when none waits.
    func claimNext() async throws(RollError) -> Job?
    /// Records progress (0…1) of a running job.
    func setProgress(_ progress: Double, id: Int64) async throws(RollError)
    /// Moves a job that is not final to `state` (done with `recordingID`, failed with `error`,
    /// cancelled); returns false when the job was already final or does not exist.
    @discardableResult
    func finish(id: Int64, state: Job.State, recordingID: Int64?, error: String?) async throws(RollError) -> Bool
    /// Jobs that were running when the process died go back to the queue; returns how many.
    @discardableResult
    func requeueRunning() async throws(RollError) -> Int
}
