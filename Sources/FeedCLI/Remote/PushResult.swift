import FeedCore

/// One file `feed push` sent: what it prints.
struct PushResult: Sendable {
    var file: String
    var uploadID: String
    var recordingID: Int
    var bytes: Int64
    var sent: Int64
    var resumedFrom: Int64

    /// `pushed a.mp4 as #12 (28.6 MB)`, with `; resumed at 10.0 MB` when it was.
    var line: String {
        let resumed = resumedFrom > 0 ? "; resumed at \(RollOutput.bytes(resumedFrom))" : ""
        return "pushed \(file) as #\(recordingID) (\(RollOutput.bytes(bytes))\(resumed))\n"
    }

    /// `{"file","upload_id","recording_id","bytes","sent","resumed_from"}`.
    var json: [UInt8] {
        var out = Array(#"{"file":"#.utf8)
        JSONOutput.write(file, into: &out)
        out += Array(#","upload_id":"#.utf8)
        JSONOutput.write(uploadID, into: &out)
        out += Array(#","recording_id":\#(recordingID),"bytes":\#(bytes),"sent":\#(sent),"resumed_from":\#(resumedFrom)}"#.utf8)
        return out
    }
}
