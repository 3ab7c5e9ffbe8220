import FeedClient
import FeedCore
import Foundation

/// The server's JSON, as the generated client decodes it, turned into FeedCore's values so that
/// `feed remote …` prints the same tables and JSON as the local commands.
extension Recording {
    init(remote r: Components.Schemas.Recording) {
        var options: String?
        if let container = r.stackOptions, let data = try? JSONEncoder().encode(container) {
            options = String(decoding: data, as: UTF8.self)
        }
        self.init(id: Int64(r.id), fileName: r.fileName, originalPath: r.originalPath ?? "", createdAt: r.createdAt,
                  media: RecordingMedia(duration: r.duration, width: r.width, height: r.height, fps: r.fps,
                                        videoCodec: r.videoCodec, hasAudio: r.hasAudio),
                  bytes: Int64(r.bytes), sha256: r.sha256, sources: r.sources, stackOptions: options, title: r.title)
    }
}

extension Job {
    init(remote j: Components.Schemas.Job) {
        self.init(id: Int64(j.id), kind: j.kind, state: Job.State(rawValue: j.state.rawValue) ?? .failed, request: "",
                  progress: j.progress, recordingID: j.recordingId.map(Int64.init), error: j.error,
                  createdAt: j.createdAt, updatedAt: j.updatedAt, attempts: j.attempts, maxAttempts: j.maxAttempts,
                  runAt: j.runAt, startedAt: j.startedAt, worker: j.worker, leaseExpiresAt: j.leaseExpiresAt)
    }
}

extension LiveStream {
    init(remote s: Components.Schemas.LiveStream) {
        self.init(id: Int64(s.id), title: s.title, streamKey: s.streamKey ?? "", state: LiveStream.State(rawValue: s.state.rawValue) ?? .ended,
                  owner: s.owner, createdAt: s.createdAt, wentLiveAt: s.wentLiveAt, endedAt: s.endedAt,
                  recordingID: s.recordingId.map(Int64.init), error: s.error)
    }
}
