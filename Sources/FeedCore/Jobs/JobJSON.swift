import Foundation

/// A job as the API and `feed jobs --json` show it: `{"id","kind","state","progress",
/// "recording_id","error","attempts","max_attempts","worker","created_at","updated_at",
/// "run_at","started_at","lease_expires_at","owner"}` (times ISO 8601 UTC, null when unset; `owner`
/// the user whose job it is, null for the server's own).
public enum JobJSON {
    /// One job as a JSON object (no newline).
    public static func bytes(_ job: Job) -> [UInt8] {
        var out = Array(#"{"id":\#(job.id),"kind":"#.utf8)
        JSONOutput.write(job.kind, into: &out)
        out.append(contentsOf: #","state":"\#(job.state.rawValue)","progress":\#(String(format: "%.3f", job.progress)),"recording_id":"#.utf8)
        out.append(contentsOf: (job.recordingID.map(String.init) ?? "null").utf8)
        out.append(contentsOf: #","error":"#.utf8)
        optional(job.error, into: &out)
        out.append(contentsOf: #","attempts":\#(job.attempts),"max_attempts":\#(job.maxAttempts),"worker":"#.utf8)
        optional(job.worker, into: &out)
        out.append(contentsOf: #","created_at":"\#(Recording.iso8601(job.createdAt))","updated_at":"\#(Recording.iso8601(job.updatedAt))""#.utf8)
        out.append(contentsOf: #","run_at":"\#(Recording.iso8601(job.runAt))","started_at":"#.utf8)
        optional(job.startedAt.map(Recording.iso8601), into: &out)
        out.append(contentsOf: #","lease_expires_at":"#.utf8)
        optional(job.leaseExpiresAt.map(Recording.iso8601), into: &out)
        out.append(contentsOf: #","owner":"#.utf8)
        optional(job.owner, into: &out)
        out.append(0x7D)
        return out
    }

    /// Jobs as one JSON array, newline-terminated.
    public static func array(_ jobs: [Job]) -> [UInt8] {
        var out: [UInt8] = [0x5B]
        for (n, job) in jobs.enumerated() {
            if n > 0 { out.append(0x2C) }
            out += bytes(job)
        }
        out += [0x5D, 0x0A]
        return out
    }

    private static func optional(_ text: String?, into out: inout [UInt8]) {
        if let text { JSONOutput.write(text, into: &out) } else { out.append(contentsOf: "null".utf8) }
    }
}
