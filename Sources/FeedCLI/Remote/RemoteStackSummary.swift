import FeedClient
import FeedCore
import Foundation

/// What `feed remote stack` prints: the output and the server's facts of the recording.
struct RemoteStackSummary {
    var output: String
    var recording: Components.Schemas.Recording
    var jobID: Int
    var seconds: Double

    /// `out.mp4  720x2560  30 fps  10.00 s  4.2 MB  job 3  recording #7  (12.1 s)`.
    var line: String {
        let r = recording
        return "\(output)  \(r.width)x\(r.height)  \(String(format: "%.3g fps", r.fps))  \(String(format: "%.2f s", r.duration))  "
            + "\(RollOutput.bytes(Int64(r.bytes)))  job \(jobID)  recording #\(r.id)  \(String(format: "(%.1f s)", seconds))\n"
    }

    /// `{"output","width","height","fps","duration","bytes","seconds","job_id","recording_id"}`.
    var json: String {
        var out = Array(#"{"output":"#.utf8)
        JSONOutput.write(output, into: &out)
        let r = recording
        out += Array(#","width":\#(r.width),"height":\#(r.height),"fps":\#(r.fps),"duration":\#(r.duration),"bytes":\#(r.bytes),"#.utf8)
        out += Array(#""seconds":\#(String(format: "%.3f", seconds)),"job_id":\#(jobID),"recording_id":\#(r.id)}"#.utf8)
        return String(decoding: out, as: UTF8.self) + "\n"
    }
}
