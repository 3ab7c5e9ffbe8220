import FeedCore
import Foundation
import Synchronization

/// What each kind of job does (stack, hls, thumb, noop), and the small pieces the runner's
/// tasks share.
extension JobRunner {
    /// Does the work of `lease`'s job and completes it; returns the recording a stack made.
    func perform(_ lease: JobLease, lost: LostFlag) async throws -> Recording? {
        let jobs = roll.jobStore
        let request = Data(lease.job.request.utf8)
        switch JobKind(rawValue: lease.job.kind) {
        case .stack:
            let stack = try JSONDecoder().decode(StackJobRequest.self, from: request)
            let front = try await Self.path(of: stack.front, roll: roll, uploads: uploads)
            let back = try await Self.path(of: stack.back, roll: roll, uploads: uploads)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let output = scratch.appendingPathComponent("\(lease.id)-\(UUID().uuidString.prefix(8)).mp4").path
            var job = StackJob(front: front, back: back, options: try stack.stackOptions(output: output), roll: roll, title: stack.title)
            job.moveIntoRoll = true
            let roll = roll
            job.stage = { name throws(RollError) in
                // An earlier attempt's file (its worker died or stalled after naming it) goes first.
                if let previous = try await jobs.stage(lease, output: name), previous != name {
                    try? roll.removeAbandonedOutput(named: previous)
                }
            }
            job.commit = { recording throws(RollError) in
                guard let stored = try await jobs.complete(lease, recording: recording, refusingDuplicates: false) else {
                    throw RollError.leaseLost(jobID: lease.id)
                }
                return stored
            }
            let throttle = ProgressThrottle()
            let outcome = try await job.run(progress: { progress in
                guard throttle.due(progress.fraction) else { return }
                Task { try? await jobs.setProgress(progress.fraction, lease: lease) }
            }, isCancelled: { lost.isSet })
            return outcome.recording
        case .hls:
            let target = try JSONDecoder().decode(RecordingJobRequest.self, from: request)
            let recording = try await roll.recording(id: target.recording)
            let cancelled = CancelOnTask()
            try await withTaskCancellationHandler {
                try await OwnThread.run("feed.hls") { [roll] in _ = try roll.hls(of: recording, isCancelled: { lost.isSet || cancelled.isSet }) }
            } onCancel: { cancelled.set() }
            return try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
        case .thumb:
            let target = try JSONDecoder().decode(RecordingJobRequest.self, from: request)
            let recording = try await roll.recording(id: target.recording)
            try await OwnThread.run("feed.thumb") { [roll] in _ = try roll.thumbnail(of: recording, at: target.at) }
            return try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
        case .noop:
            return try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
        case nil:
            throw RollError.invalidArgument("job \(lease.id): unknown kind \(lease.job.kind) (this feed runs \(JobKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
    }

    /// The stored file of a request's source: a recording, or the recording a finished upload became.
    static func path(of source: StackJobRequest.Source, roll: Roll, uploads: UploadStore) async throws -> String {
        if let id = source.recording { return roll.path(of: try await roll.recording(id: id)) }
        if let id = source.upload {
            switch try await uploads.upload(id: id).state {
            case .done(let recording): return roll.path(of: try await roll.recording(id: recording))
            case .failed(let reason): throw RollError.invalidArgument("upload \(id) failed: \(reason)")
            case .uploading, .processing: throw RollError.invalidArgument("upload \(id) is not finished yet")
            }
        }
        throw RollError.invalidArgument("a source needs {\"recording\": ID} or {\"upload\": ID}")
    }
}

/// Set when the task running a packaging is cancelled; polled by the packaging thread.
final class CancelOnTask: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

/// Set once a job's lease is lost; polled by its work.
final class LostFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

/// Lets a progress write through every 2 % (the stacking thread calls it per frame).
final class ProgressThrottle: Sendable {
    private let last = Locked<Double>(-1)
    func due(_ fraction: Double) -> Bool {
        last.withLock { value in
            guard fraction - value >= 0.02 || fraction >= 1 else { return false }
            value = fraction
            return true
        }
    }
}
