import Foundation

/// One event for webhooks: `{"id":"evt_…","type":"job.done","created":"2026-…Z","data":{…}}`.
/// Its id is made once, so every attempt at every endpoint carries the same one (a receiver
/// drops duplicates by it).
public struct WebhookEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        case uploadDone = "upload.done"
        case uploadFailed = "upload.failed"
        case jobDone = "job.done"
        case jobFailed = "job.failed"
        case jobCancelled = "job.cancelled"
        case hlsReady = "hls.ready"
        /// A publisher was accepted for a live stream (the first, or one back within the reconnect window).
        case liveConnected = "live.connected"
        /// A live stream's first part exists: its playback URL plays.
        case liveActive = "live.active"
        /// A live stream's publisher went; the reconnect window runs.
        case liveDisconnected = "live.disconnected"
        /// A live stream ended for good (its owner ended it, or the reconnect window passed).
        case liveEnded = "live.ended"
        /// An ended live stream's recording is in the roll (`recording_id`).
        case liveRecordingReady = "live.recording.ready"
        /// A recording became a post (`POST /videos`, a tus upload or a live stream with `publish`).
        case videoPublished = "video.published"
        /// A post was unpublished (by its author or the admin), or its recording removed.
        case videoRemoved = "video.removed"
        /// A comment or a reply was posted under a post.
        case commentCreated = "comment.created"
        /// A post or a comment was reported.
        case reportCreated = "report.created"
        /// A user followed another.
        case userFollowed = "user.followed"
    }

    /// `evt_` and 32 hex digits.
    public let id: String
    public let type: Kind
    public let created: Date
    /// The `data` object, JSON text.
    public let data: String

    /// An event of `type` about `data` (a JSON object's text), made now.
    public init(_ type: Kind, data: String, created: Date = Date()) {
        id = "evt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        self.type = type
        self.created = created
        self.data = data
    }

    /// The JSON text a receiver gets.
    public var json: String {
        var out = Array(#"{"id":"#.utf8)
        JSONOutput.write(id, into: &out)
        out += Array(#","type":"#.utf8)
        JSONOutput.write(type.rawValue, into: &out)
        out += Array(#","created":"#.utf8)
        JSONOutput.write(Recording.iso8601(created), into: &out)
        out += Array(#","data":"#.utf8) + Array(data.utf8) + [UInt8(ascii: "}")]
        return String(decoding: out, as: UTF8.self)
    }
}

extension WebhookEvent {
    /// `job.done`, `job.failed` or `job.cancelled`: the job as `GET /jobs/{id}` gives it.
    public static func job(_ type: Kind, _ job: Job) -> WebhookEvent {
        WebhookEvent(type, data: String(decoding: JobJSON.bytes(job), as: UTF8.self))
    }

    /// `hls.ready`: `{"recording_id":ID}`.
    public static func hlsReady(recording id: Int64) -> WebhookEvent {
        WebhookEvent(.hlsReady, data: #"{"recording_id":\#(id)}"#)
    }

    /// A `live.*` event: the stream as `GET /live/{id}` gives it, without its key.
    public static func live(_ type: Kind, _ stream: LiveStream) -> WebhookEvent {
        var out: [UInt8] = []
        LiveStreamJSON.encode(stream, showKey: false, into: &out)
        return WebhookEvent(type, data: String(decoding: out, as: UTF8.self))
    }

    /// `upload.done` or `upload.failed`: `{"id","state","filename","title","recording_id","error"}`.
    public static func upload(_ upload: Upload) -> WebhookEvent {
        var recording: Int64?, error: String?
        switch upload.state {
        case let .done(id): recording = id
        case let .failed(reason): error = reason
        case .uploading, .processing: break
        }
        var out = Array(#"{"id":"#.utf8)
        JSONOutput.write(upload.id, into: &out)
        out += Array(#","state":"#.utf8)
        JSONOutput.write(upload.state.name, into: &out)
        out += Array(#","filename":"#.utf8)
        JSONOutput.write(upload.metadata.filename, into: &out)
        out += Array(#","title":"#.utf8)
        JSONOutput.write(upload.metadata.title, into: &out)
        out += Array(#","recording_id":"#.utf8) + Array((recording.map(String.init) ?? "null").utf8)
        out += Array(#","error":"#.utf8)
        JSONOutput.write(error, into: &out)
        out += Array("}".utf8)
        return WebhookEvent(error == nil ? .uploadDone : .uploadFailed, data: String(decoding: out, as: UTF8.self))
    }
}
