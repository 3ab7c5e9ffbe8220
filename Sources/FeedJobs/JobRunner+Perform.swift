import FeedCore
import Foundation

/// What each kind of job does: a stack makes a recording, hls and thumb fill the roll's cache,
/// noop nothing. Every kind completes under its lease, so a worker that lost it writes nothing.
extension JobRunner {
    /// Does the work of `lease`'s job and completes it; returns the recording a stack made.
    func perform(_ lease: JobLease, lost: StopFlag) async throws -> Recording? {
        let jobs = roll.jobStore
        switch try lease.job.typedRequest() {
        case let .stack(request):
            return try await stack(request, lease: lease, lost: lost)
        case let .hls(request):
            let recording = try await roll.recording(id: request.recording)
            let cancelled = StopFlag()
            try await withTaskCancellationHandler {
                try await pool.run { [roll] in _ = try roll.hls(of: recording, isCancelled: { lost.isSet || cancelled.isSet }) }
            } onCancel: { cancelled.set() }
            return try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
        case let .thumb(request):
            let recording = try await roll.recording(id: request.recording)
            try await pool.run { [roll] in _ = try roll.thumbnail(of: recording, at: request.at) }
            return try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
        case .noop:
            return try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
        }
    }

    /// Stacks into this runner's scratch folder, then renames into `recordings/` and completes
    /// with the new recording in one transaction.
    private func stack(_ request: StackJobRequest, lease: JobLease, lost: StopFlag) async throws -> Recording? {
        let jobs = roll.jobStore
        let front = try await queue.path(of: request.front)
        let back = try await queue.path(of: request.back)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var options = request.options
        options.output = scratch.appendingPathComponent("\(lease.id)-\(UUID().uuidString.prefix(8)).mp4").path
        options.force = true
        try options.validate()
        var job = StackJob(front: front, back: back, options: options, roll: roll, title: request.title)
        job.moveIntoRoll = true
        job.pool = pool
        let roll = roll
        job.stage = { name throws(RollError) in
            // An earlier attempt's file (its worker died or stalled after naming it) goes first.
            if let previous = try await jobs.stage(lease, output: name), previous != name {
                try? roll.removeAbandonedOutput(named: previous)
            }
        }
        job.commit = { recording throws(RollError) in
            // The recording is the job's owner's.
            var recording = recording
            recording.owner = lease.job.owner
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
    }
}
