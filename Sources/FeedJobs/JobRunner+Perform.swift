import FeedCore
import FeedRecs
import Foundation

/// What each kind of job does: a stack makes a recording, hls and thumb fill the roll's cache,
/// noop nothing. Every kind completes under its lease, so a worker that lost it writes nothing.
extension JobRunner {
    /// Does the work of `lease`'s job and completes it; returns the recording a stack made.
    func perform(_ lease: JobLease, lost: StopFlag) async throws -> Recording? {
        let jobs = roll.catalog
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
        case .recsTrain:
            // On this runner's pool: reading millions of events and the co-watching pass are
            // seconds of CPU that never run on Swift's cooperative pool.
            let store = try roll.recsStore()
            let info = try await withTaskExecutorPreference(pool) { () async throws(RecsError) -> ModelInfo in
                try await RecsTrainer().train(store: store, now: Date().timeIntervalSince1970)
            }
            log?("job \(lease.id): recs model \(info.version) trained from \(info.events) events, \(info.viewers) viewers, \(info.videos) videos in \(String(format: "%.1f", info.seconds)) s")
            return try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
        case let .webhook(request):
            try await deliver(request, lease: lease)
            return nil
        }
    }

    /// One attempt at a webhook delivery: the event's bytes, signed now. A 2xx completes the job;
    /// anything else queues it again after the schedule's delay (``WebhookDelivery``), until the
    /// window since the event is over: then it fails, naming the last outcome.
    private func deliver(_ request: WebhookJobRequest, lease: JobLease) async throws {
        let jobs = roll.catalog
        guard let sender = webhooks.sender else {
            // This runner cannot send (no HTTP client): another one may.
            _ = try await jobs.release(lease)
            return
        }
        let body = Array(request.event.utf8)
        // Signed with this machine's time, which the receiver checks against its own.
        let signed = Date().timeIntervalSince1970
        let began = ContinuousClock.now
        let outcome: String
        do {
            // Kept sealed in the catalog (``SecretBox``): opened here, for this signature only.
            let secret = try SecretBox.open(request.secret, with: webhooks.secrets)
            let headers = [("Content-Type", "application/json"),
                           ("Feed-Signature", WebhookSignature.header(secret: secret, time: Int64(signed), body: body)),
                           ("Feed-Event-Id", request.eventID), ("Feed-Event-Type", request.type), ("User-Agent", "feed-webhooks/0.1")]
            let status = try await sender.post(url: request.url, headers: headers, body: body, timeout: webhooks.timeout)
            if (200..<300).contains(status) {
                _ = try await jobs.complete(lease, recording: nil, refusingDuplicates: false)
                log?("job \(lease.id): webhook \(request.type) \(request.eventID) delivered (\(status)), attempt \(lease.job.attempts)")
                return
            }
            outcome = "answered \(status)"
        } catch {
            outcome = (error as? any FeedFailure)?.description ?? "\(error)"
        }
        let attempt = lease.job.attempts
        // From when the attempt ended (a timeout takes seconds): the next one, if the window has
        // room. Both on the store's clock (the database's, for PostgreSQL), which dated the event
        // and will compare `run_at` with its own now: the claim's time plus the time taken here.
        let taken = (ContinuousClock.now - began) / .seconds(1)
        let ended = (lease.job.startedAt ?? Date()).timeIntervalSince1970 + taken
        let next = ended + webhooks.delay(after: attempt)
        let message = "attempt \(attempt) at \(request.url): \(outcome)"
        if next < lease.job.createdAt.timeIntervalSince1970 + webhooks.window {
            _ = try await jobs.retryLater(lease, error: message, at: next)
            log?("job \(lease.id): webhook \(request.type) \(request.eventID): \(outcome); again in \(String(format: "%.1f", next - ended)) s")
        } else {
            _ = try await jobs.fail(lease, error: "no 2xx within \(Int(webhooks.window)) s of the event; last \(message)")
            log?("job \(lease.id): webhook \(request.type) \(request.eventID) failed: \(outcome)")
        }
    }

    /// Stacks into this runner's scratch folder, then renames into `recordings/` and completes
    /// with the new recording in one transaction.
    private func stack(_ request: StackJobRequest, lease: JobLease, lost: StopFlag) async throws -> Recording? {
        let jobs = roll.catalog
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
        let throttle = ProgressThrottle()
        let progress = ProgressWriter { fraction in _ = try? await jobs.setProgress(fraction, lease: lease) }
        // A write after the job completed changes nothing (the store takes progress only from
        // a running job's lease holder): nothing waits for the last one.
        defer { progress.close() }
        job.commit = { recording throws(RollError) in
            // The recording is the job's owner's.
            var recording = recording
            recording.owner = lease.job.owner
            guard let stored = try await jobs.complete(lease, recording: recording, refusingDuplicates: false) else {
                throw RollError.leaseLost(jobID: lease.id)
            }
            return stored
        }
        do {
            let outcome = try await job.run(progress: { step in
                if throttle.due(step.fraction) { progress.report(step.fraction) }
            }, isCancelled: { lost.isSet })
            return outcome.recording
        } catch .notSaved(let output, let error) {
            // Written but refused by the roll (the lease lost, the catalog away): the file in this
            // runner's scratch folder is no one's now, so it goes at once, not when the runner stops.
            unlink(output)
            throw StackError.notSaved(output: output, error)
        }
    }
}
