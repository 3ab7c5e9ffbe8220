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
