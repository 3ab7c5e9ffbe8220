import Foundation

/// A delivery (a `webhook` job) as `GET /webhooks/deliveries` and `feed webhooks --json` write it:
/// `{"id","event_id","type","url","state","attempts","error","created_at","updated_at","next_attempt_at"}`;
/// `state` is the job's (`queued` between attempts, `done` when delivered, `failed` when the
/// window ran out). Never the secret.
public enum WebhookDeliveryJSON {
    /// The delivery `job` is, or nil for another kind of job.
    public static func request(_ job: Job) -> WebhookJobRequest? {
        if case let .webhook(request)? = try? job.typedRequest() { return request }
        return nil
    }

    /// One delivery as a JSON object.
    public static func bytes(_ job: Job) -> [UInt8] {
        let request = request(job)
        var out = Array(#"{"id":\#(job.id),"event_id":"#.utf8)
        JSONOutput.write(request?.eventID ?? "", into: &out)
        out += Array(#","type":"#.utf8)
        JSONOutput.write(request?.type ?? "", into: &out)
        out += Array(#","url":"#.utf8)
        JSONOutput.write(request?.url ?? "", into: &out)
        out += Array(#","state":"#.utf8)
        JSONOutput.write(job.state.rawValue, into: &out)
        out += Array(#","attempts":\#(job.attempts),"error":"#.utf8)
        JSONOutput.write(job.error, into: &out)
        out += Array(#","created_at":"#.utf8)
        JSONOutput.write(Recording.iso8601(job.createdAt), into: &out)
        out += Array(#","updated_at":"#.utf8)
        JSONOutput.write(Recording.iso8601(job.updatedAt), into: &out)
        out += Array(#","next_attempt_at":"#.utf8)
        JSONOutput.write(job.state == .queued ? Recording.iso8601(job.runAt) : nil, into: &out)
        return out + [UInt8(ascii: "}")]
    }
}
