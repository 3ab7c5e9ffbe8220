import FeedCore
import Foundation

/// What `feed stack` prints when it is done: one line for people, or with `--json` one object
/// with stable snake_case keys, all always present: output, width, height, fps, frames,
/// duration (seconds of video), bytes, seconds (wall time taken), audio ("back", "front" or
/// null), offset (seconds the front started after the back), sync_confidence (with --sync, else
/// null), roll_id (the new recording's id with --save, else null).
struct StackSummary: Encodable {
    var result: StackResult
    var rollID: Int64?

    private enum Key: String, CodingKey {
        case output, width, height, fps, frames, duration, bytes, seconds, audio, offset
        case syncConfidence = "sync_confidence", rollID = "roll_id"
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(result.output, forKey: .output)
        try c.encode(result.width, forKey: .width)
        try c.encode(result.height, forKey: .height)
        try c.encode(result.fps, forKey: .fps)
        try c.encode(result.frames, forKey: .frames)
        try c.encode(result.duration, forKey: .duration)
        try c.encode(result.bytes, forKey: .bytes)
        try c.encode(result.seconds, forKey: .seconds)
        try c.encode(result.audio, forKey: .audio)
        try c.encode(result.offset, forKey: .offset)
        try c.encode(result.syncConfidence, forKey: .syncConfidence)
        try c.encode(rollID, forKey: .rollID)
    }

    /// The JSON object, keys sorted, newline-terminated.
    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// `out.mp4  720x2560  30 fps  300 frames  10.00 s  4.2 MB  audio back  (3.1 s)`, with
    /// `offset 0.412 s (sync confidence 14.2)` before the time taken when --sync found it.
    func line(style: Style) -> String {
        let r = result
        let fps = String(format: "%.3g fps", r.fps)
        let duration = String(format: "%.2f s", r.duration)
        let taken = String(format: "(%.1f s)", r.seconds)
        let synced = r.syncConfidence.map {
            "offset \(SyncSummary.seconds(r.offset)) s (sync confidence \(SyncSummary.confidence($0)))  "
        } ?? ""
        return "\(style.bold(r.output))  \(r.width)x\(r.height)  \(fps)  \(r.frames) frames  \(duration)  "
            + "\(RollOutput.bytes(r.bytes))  audio \(r.audio ?? "none")  \(synced)\(style.dim(taken))\n"
    }
}
