import Foundation
import Synchronization

/// One stack of a front and a back clip and, when a roll is given, its save into that roll
/// with both sources and the options used: what `feed stack [--save]` and a server job run.
///
/// There is never an output without its row: cancellation before the save starts removes
/// the output and throws ``StackError/interrupted``; once the save has started it runs to
/// its end whatever happens to the caller.
public struct StackJob: Sendable {
    /// The front camera clip.
    public var front: String
    /// The back camera clip.
    public var back: String
    /// How to stack them, and where to write the output.
    public var options: StackOptions
    /// The roll the output is saved to; nil to only write the output.
    public var roll: Roll?
    /// The saved recording's title.
    public var title: String?
    /// Move the output into the roll instead of copying it (the output path is then gone).
    public var moveIntoRoll = false
    /// Inserts the saved recording's row in place of the roll's catalog (a queued job's
    /// completion under its lease; see ``AddOptions/commit``).
    public var commit: RecordingCommit?
    /// Learns the saved file's name before it is renamed into the roll (see ``AddOptions/stage``).
    public var stage: (@Sendable (String) async throws(RollError) -> Void)?
    /// Where the blocking stacker runs: the caller's pool (a server's or a worker's, shared with
    /// its other FFmpeg work); nil: a pool of one thread for this run.
    public var pool: BlockingPool?

    /// What a finished job produced.
    public struct Outcome: Sendable {
        /// The stacked output as written.
        public var result: StackResult
        /// The recording it was saved as (nil without a roll).
        public var recording: Recording?
    }

    /// A job; `options` should be validated (``StackOptions/validate()``) by the caller or is checked by the stacker.
    public init(front: String, back: String, options: StackOptions, roll: Roll? = nil, title: String? = nil) {
        self.front = front
        self.back = back
        self.options = options
        self.roll = roll
        self.title = title
    }

    /// Stacks on a thread of its own (the calling task is not blocked), then saves.
    ///
    /// - Parameters:
    ///   - progress: called on the stacking thread after each frame.
    ///   - isCancelled: polled before every frame and before the save; cancelling the calling
    ///     task has the same effect.
    /// - Throws: ``StackError`` (``StackError/interrupted`` when cancelled, with no output left),
    ///   ``StackError/notSaved(output:_:)`` when the output was written but the roll refused it.
    public func run(progress: @escaping @Sendable (StackProgress) -> Void = { _ in },
                    isCancelled: @escaping @Sendable () -> Bool = { false }) async throws(StackError) -> Outcome {
        let cancelled = CancelFlag()
        let stopped: @Sendable () -> Bool = { cancelled.isSet || isCancelled() }
        let result = try await withTaskCancellationHandler {
            await stackOnThread(progress: progress, isCancelled: stopped)
        } onCancel: {
            cancelled.set()
        }.get()
        if stopped() {
            unlink(result.output)
            throw .interrupted
        }
        guard let roll else { return Outcome(result: result, recording: nil) }
        CrashPoint.reach(.stackWritten)
        if stopped() {
            unlink(result.output)
            throw .interrupted
        }
        // Once started, the save runs to its end in a task of its own: a cancelled caller
        // must not leave an output without its row (or a row without its file). Its steps block
        // (the roll's lock, a probe, hashing, fsync): on the pool's threads, when there is one.
        let save = Task(executorPreference: pool) { [front, back, options, title, moveIntoRoll, commit, stage] () async -> Result<Recording, RollError> in
            do throws(RollError) {
                return .success(try await roll.addStacked(result.output, front: front, back: back,
                                                          options: SavedStackOptions(options, result),
                                                          title: title, move: moveIntoRoll, commit: commit, stage: stage))
            } catch { return .failure(error) }
        }
        switch await save.value {
        case .success(let recording): return Outcome(result: result, recording: recording)
        case .failure(let error): throw .notSaved(output: result.output, error)
        }
    }

    /// The async form for servers: progress as a stream (finished when the job ends) and the
    /// outcome as a task; cancelling the task cancels the job.
    public func start() -> (progress: AsyncStream<StackProgress>, outcome: Task<Outcome, any Error>) {
        let (stream, continuation) = AsyncStream.makeStream(of: StackProgress.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            defer { continuation.finish() }
            return try await run(progress: { continuation.yield($0) })
        }
        return (stream, task)
    }

    /// Runs the blocking stacker on a thread of ``pool`` and returns its result.
    private func stackOnThread(progress: @escaping @Sendable (StackProgress) -> Void,
                               isCancelled: @escaping @Sendable () -> Bool) async -> Result<StackResult, StackError> {
        let (front, back, options) = (front, back, options)
        let pool = self.pool ?? BlockingPool(name: "feed.stack", threads: 1)
        defer { if self.pool == nil { pool.shutdown() } }
        do throws(StackError) {
            return .success(try await pool.run { () throws(StackError) -> StackResult in
                try Stacker(front: front, back: back, options: options).run(progress: progress, isCancelled: isCancelled)
            })
        } catch {
            return .failure(error)
        }
    }
}

/// A flag set once from any thread (task cancellation) and polled by the stacking thread.
private final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
