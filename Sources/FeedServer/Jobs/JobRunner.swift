import FeedCore
import Foundation
import ServiceLifecycle
import Synchronization

/// Runs queued jobs, at most `slots` at once, as a lifecycle service: jobs are rows, so the
/// queue survives a restart, and a job that was running when the server died runs again.
/// On shutdown the running jobs are cancelled (no output, no row) and go back to the queue.
public actor JobRunner: Service {
    let service: FeedService
    let slots: Int
    private var running: [Int64: Task<Void, Never>] = [:]
    private var cancelledByUser: Set<Int64> = []
    private var wakeUp: CheckedContinuation<Void, Never>?

    /// A runner of at most `slots` jobs at once.
    public init(service: FeedService, slots: Int) {
        self.service = service
        self.slots = max(1, slots)
    }

    public func run() async throws {
        let jobs = service.roll.jobStore
        try await jobs.requeueRunning()
        // Nothing runs yet, so whatever is in .jobs was left by a killed run.
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: service.roll.paths.jobs.path)) ?? []
        for name in leftovers { try? FileManager.default.removeItem(at: service.roll.paths.jobs.appendingPathComponent(name)) }
        await withGracefulShutdownHandler {
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                await fill()
                await sleep(seconds: 0.5)
            }
        } onGracefulShutdown: {
            Task { await self.wake() }
        }
        // Stop what runs; those jobs are queued again for the next start.
        for task in running.values { task.cancel() }
        for task in running.values { await task.value }
        await Task { _ = try? await jobs.requeueRunning() }.value
    }

    /// Starts queued jobs while a slot is free.
    private func fill() async {
        while running.count < slots, let job = try? await service.roll.jobStore.claimNext() {
            let id = job.id
            running[id] = Task { await self.execute(job); await self.ended(id) }
        }
    }

    private func ended(_ id: Int64) { running[id] = nil; cancelledByUser.remove(id); wake() }

    /// A new job was queued: look at once instead of at the next poll.
    public func wake() {
        wakeUp?.resume()
        wakeUp = nil
    }

    private func sleep(seconds: Double) async {
        await withCheckedContinuation { continuation in
            wakeUp = continuation
            Task { try? await Task.sleep(for: .seconds(seconds)); self.wake() }
        }
    }

    /// Cancels job `id`: a queued one at once, a running one once its stack has stopped
    /// (its output removed, no row). Returns the job as it ends, or nil when unknown.
    public func cancel(_ id: Int64) async throws(RollError) -> Job? {
        let jobs = service.roll.jobStore
        if let task = running[id] {
            cancelledByUser.insert(id)
            task.cancel()
            await task.value
        } else {
            try await jobs.finish(id: id, state: .cancelled, recordingID: nil, error: nil)
        }
        return try await jobs.job(id: id)
    }

    private func wasCancelledByUser(_ id: Int64) -> Bool { cancelledByUser.contains(id) }

    /// Runs one stack job to its end and records how it ended.
    private func execute(_ job: Job) async {
        let jobs = service.roll.jobStore
        let roll = service.roll
        do {
            let request = try JSONDecoder().decode(StackJobRequest.self, from: Data(job.request.utf8))
            let front = try await Self.path(of: request.front, service: service)
            let back = try await Self.path(of: request.back, service: service)
            let output = roll.paths.jobs.appendingPathComponent("\(job.id)-\(UUID().uuidString.prefix(8)).mp4").path
            var stack = StackJob(front: front, back: back, options: try request.stackOptions(output: output), roll: roll, title: request.title)
            stack.moveIntoRoll = true
            let throttle = ProgressThrottle()
            let outcome = try await stack.run(progress: { progress in
                guard throttle.due(progress.fraction) else { return }
                Task { try? await jobs.setProgress(progress.fraction, id: job.id) }
            })
            await Self.record(job.id, .done, recordingID: outcome.recording?.id, error: nil, in: jobs)
        } catch StackError.interrupted {
            // A user's cancel ends the job; a shutdown leaves it running, to be queued again.
            if wasCancelledByUser(job.id) { await Self.record(job.id, .cancelled, recordingID: nil, error: nil, in: jobs) }
        } catch let error as any FeedFailure {
            await Self.record(job.id, .failed, recordingID: nil, error: error.description, in: jobs)
        } catch {
            await Self.record(job.id, .failed, recordingID: nil, error: "bad request: \(error)", in: jobs)
        }
    }

    /// Writes how a job ended from a task of its own: the job's task may be cancelled, and a
    /// cancelled task's database calls would be refused.
    private static func record(_ id: Int64, _ state: Job.State, recordingID: Int64?, error: String?, in jobs: any JobStore) async {
        await Task { _ = try? await jobs.finish(id: id, state: state, recordingID: recordingID, error: error) }.value
    }

    /// The stored file of a request's source: a recording, or the recording a finished upload became.
    static func path(of source: StackJobRequest.Source, service: FeedService) async throws -> String {
        let roll = service.roll
        if let id = source.recording { return roll.path(of: try await roll.recording(id: id)) }
        if let id = source.upload {
            switch try service.uploads.upload(id: id).state {
            case .done(let recording): return roll.path(of: try await roll.recording(id: recording))
            case .failed(let reason): throw RollError.invalidArgument("upload \(id) failed: \(reason)")
            case .uploading, .processing: throw RollError.invalidArgument("upload \(id) is not finished yet")
            }
        }
        throw RollError.invalidArgument("a source needs {\"recording\": ID} or {\"upload\": ID}")
    }
}

/// Lets a progress write through every 2 % (the stacking thread calls it per frame).
private final class ProgressThrottle: Sendable {
    private let last = Mutex<Double>(-1)
    func due(_ fraction: Double) -> Bool {
        last.withLock { value in
            guard fraction - value >= 0.02 || fraction >= 1 else { return false }
            value = fraction
            return true
        }
    }
}
