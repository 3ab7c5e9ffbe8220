import FeedCore

/// A catalog made of another one with some of its stores replaced: a test's gated job store or
/// faulty upload records in front of a real catalog, every other call passed to `base`.
public struct ComposedCatalog: Catalog {
    public let base: any Catalog
    public let jobs: any JobStore
    public let uploads: any UploadRecordStore

    /// `base` with its job store and upload records replaced where given.
    public init(_ base: any Catalog, jobs: (any JobStore)? = nil, uploads: (any UploadRecordStore)? = nil) {
        self.base = base
        self.jobs = jobs ?? base
        self.uploads = uploads ?? base
    }

    public func close() async { await base.close() }

    // MARK: Recordings, marks, comments, webhooks, live streams: base's

    public func migrate() async throws(RollError) { try await base.migrate() }
    public func insert(_ recording: Recording, refusingDuplicates: Bool) async throws(RollError) -> Recording {
        try await base.insert(recording, refusingDuplicates: refusingDuplicates)
    }
    public func insertAll(_ recordings: [Recording]) async throws(RollError) -> Int { try await base.insertAll(recordings) }
    public func recording(id: Int64) async throws(RollError) -> Recording? { try await base.recording(id: id) }
    public func recordings(after cursor: RecordingCursor?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Recording] {
        try await base.recordings(after: cursor, limit: limit, ownedBy: owner)
    }
    public func recordings(offset: Int, limit: Int?) async throws(RollError) -> [Recording] {
        try await base.recordings(offset: offset, limit: limit)
    }
    public func count() async throws(RollError) -> Int { try await base.count() }
    public func delete(id: Int64) async throws(RollError) -> Bool { try await base.delete(id: id) }
    public func recordingID(sha256: String, owner: String?) async throws(RollError) -> Int64? {
        try await base.recordingID(sha256: sha256, owner: owner)
    }
    public func updateContent(_ recording: Recording) async throws(RollError) -> Bool { try await base.updateContent(recording) }
    public func setMark(_ mark: VideoMark, _ on: Bool, videoID: String, feed: String, owner: String) async throws(RollError) -> Bool {
        try await base.setMark(mark, on, videoID: videoID, feed: feed, owner: owner)
    }
    public func marks(feed: String, owner: String) async throws(RollError) -> [String: Set<VideoMark>] {
        try await base.marks(feed: feed, owner: owner)
    }
    public func videoIDs(marked mark: VideoMark, feed: String, owner: String) async throws(RollError) -> [String] {
        try await base.videoIDs(marked: mark, feed: feed, owner: owner)
    }
    public func addComment(username: String, text: String, owner: String?) async throws(RollError) -> Int64 {
        try await base.addComment(username: username, text: text, owner: owner)
    }
    public func storedComments(after: Int64, limit: Int?) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        try await base.storedComments(after: after, limit: limit)
    }
    public func storedComments(before: Int64?, limit: Int) async throws(RollError) -> [(number: Int64, username: String, text: String)] {
        try await base.storedComments(before: before, limit: limit)
    }
    public func addWebhook(url: String, secret: String) async throws(RollError) -> WebhookEndpoint {
        try await base.addWebhook(url: url, secret: secret)
    }
    public func webhooks() async throws(RollError) -> [WebhookEndpoint] { try await base.webhooks() }
    public func removeWebhook(id: Int64) async throws(RollError) -> Bool { try await base.removeWebhook(id: id) }
    public func insertLiveStream(_ stream: LiveStream) async throws(RollError) -> LiveStream { try await base.insertLiveStream(stream) }
    public func liveStream(id: Int64) async throws(RollError) -> LiveStream? { try await base.liveStream(id: id) }
    public func liveStream(keyHash: String) async throws(RollError) -> LiveStream? { try await base.liveStream(keyHash: keyHash) }
    public func liveStreams(before: Int64?, limit: Int, ownedBy owner: String?) async throws(RollError) -> [LiveStream] {
        try await base.liveStreams(before: before, limit: limit, ownedBy: owner)
    }
    public func updateLiveStream(_ stream: LiveStream, ifState expected: LiveStream.State) async throws(RollError) -> Bool {
        try await base.updateLiveStream(stream, ifState: expected)
    }
    public func addLiveComment(_ comment: LiveComment) async throws(RollError) -> LiveComment { try await base.addLiveComment(comment) }
    public func addLiveHearts(stream streamID: Int64, count: Int) async throws(RollError) {
        try await base.addLiveHearts(stream: streamID, count: count)
    }
    public func setLiveViewers(stream streamID: Int64, count: Int) async throws(RollError) {
        try await base.setLiveViewers(stream: streamID, count: count)
    }
    public func liveComments(stream streamID: Int64, after: Int64, limit: Int) async throws(RollError) -> [LiveComment] {
        try await base.liveComments(stream: streamID, after: after, limit: limit)
    }
    public func liveComments(stream streamID: Int64, before: Int64?, limit: Int) async throws(RollError) -> [LiveComment] {
        try await base.liveComments(stream: streamID, before: before, limit: limit)
    }

    // MARK: Jobs: `jobs`

    public func enqueue(_ request: JobRequest, maxAttempts: Int, owner: String?) async throws(RollError) -> Job {
        try await jobs.enqueue(request, maxAttempts: maxAttempts, owner: owner)
    }
    public func job(id: Int64) async throws(RollError) -> Job? { try await jobs.job(id: id) }
    public func jobs(state: Job.State?, kind: JobKind?, limit: Int?, ownedBy owner: String?) async throws(RollError) -> [Job] {
        try await jobs.jobs(state: state, kind: kind, limit: limit, ownedBy: owner)
    }
    public func jobCounts() async throws(RollError) -> JobCounts { try await jobs.jobCounts() }
    public func claim(worker: String, lease: Double, limit: Int, kinds: Set<JobKind>) async throws(RollError) -> [JobLease] {
        try await jobs.claim(worker: worker, lease: lease, limit: limit, kinds: kinds)
    }
    public func renew(_ lease: JobLease, for seconds: Double) async throws(RollError) -> Bool { try await jobs.renew(lease, for: seconds) }
    public func setProgress(_ progress: Double, lease: JobLease) async throws(RollError) -> Bool {
        try await jobs.setProgress(progress, lease: lease)
    }
    public func stage(_ lease: JobLease, output name: String) async throws(RollError) -> String? {
        try await jobs.stage(lease, output: name)
    }
    public func abandonedOutputs() async throws(RollError) -> [(id: Int64, name: String)] { try await jobs.abandonedOutputs() }
    public func forgetOutput(id: Int64, name: String) async throws(RollError) { try await jobs.forgetOutput(id: id, name: name) }
    public func complete(_ lease: JobLease, recording: Recording?, refusingDuplicates: Bool) async throws(RollError) -> Recording? {
        try await jobs.complete(lease, recording: recording, refusingDuplicates: refusingDuplicates)
    }
    public func fail(_ lease: JobLease, error: String) async throws(RollError) -> Bool { try await jobs.fail(lease, error: error) }
    public func retryLater(_ lease: JobLease, error: String, at: Double) async throws(RollError) -> Bool {
        try await jobs.retryLater(lease, error: error, at: at)
    }
    public func release(_ lease: JobLease) async throws(RollError) -> Bool { try await jobs.release(lease) }
    public func takeBack(_ selection: LapsedLease.Selection,
                         deciding decide: @escaping @Sendable (LapsedLease) -> LapsedLease.Outcome) async throws(RollError) -> Int {
        try await jobs.takeBack(selection, deciding: decide)
    }
    public func cancel(id: Int64) async throws(RollError) -> JobUpdate? { try await jobs.cancel(id: id) }
    public func retry(id: Int64) async throws(RollError) -> JobUpdate? { try await jobs.retry(id: id) }
    public func waitForJobs(timeout: Double) async { await jobs.waitForJobs(timeout: timeout) }

    // MARK: Uploads: `uploads`

    public func insertUpload(_ record: UploadRecord) async throws(RollError) { try await uploads.insertUpload(record) }
    public func uploadRecord(id: String) async throws(RollError) -> UploadRecord? { try await uploads.uploadRecord(id: id) }
    public func uploadRecords(phase: UploadRecord.Phase?) async throws(RollError) -> [UploadRecord] {
        try await uploads.uploadRecords(phase: phase)
    }
    public func claimUpload(id: String, token: String, for seconds: Double) async throws(RollError) -> Bool {
        try await uploads.claimUpload(id: id, token: token, for: seconds)
    }
    public func renewUpload(id: String, token: String, for seconds: Double, synced: Int64?) async throws(RollError) -> Bool {
        try await uploads.renewUpload(id: id, token: token, for: seconds, synced: synced)
    }
    public func releaseUpload(id: String, token: String) async throws(RollError) { try await uploads.releaseUpload(id: id, token: token) }
    public func finishUpload(_ record: UploadRecord, token: String) async throws(RollError) -> Bool {
        try await uploads.finishUpload(record, token: token)
    }
    public func deleteUpload(id: String, token: String) async throws(RollError) -> Bool {
        try await uploads.deleteUpload(id: id, token: token)
    }
}
