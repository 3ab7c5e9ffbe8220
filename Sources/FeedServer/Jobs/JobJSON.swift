import FeedCore
import Foundation

/// A job as the API shows it: `{"id","kind","state","progress","recording_id","error","created_at","updated_at"}`.
enum JobJSON {
    static func bytes(_ job: Job) -> [UInt8] {
        var out = Array(#"{"id":\#(job.id),"kind":"#.utf8)
        JSONBytes.string(job.kind, into: &out)
        out.append(contentsOf: #","state":"\#(job.state.rawValue)","progress":\#(String(format: "%.3f", job.progress)),"recording_id":"#.utf8)
        out.append(contentsOf: (job.recordingID.map(String.init) ?? "null").utf8)
        out.append(contentsOf: #","error":"#.utf8)
        if let error = job.error { JSONBytes.string(error, into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","created_at":"\#(Recording.iso8601(job.createdAt))","updated_at":"\#(Recording.iso8601(job.updatedAt))"}"#.utf8)
        return out
    }
}
