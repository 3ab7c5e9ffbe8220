import Foundation

/// Writes recordings as JSON for `feed roll --json` / `--ndjson` / `show --json`, without
/// Foundation's encoder (a 100,000-row listing stays fast).
///
/// Fields, in this order, null where absent: `id`, `file` (absolute path of the stored
/// file), `file_name`, `original_path`, `created_at` (ISO 8601 UTC), `duration` (seconds),
/// `width`, `height`, `fps`, `video_codec`, `has_audio`, `bytes`, `sha256`, `sources`
/// (array of paths), `stack_options` (the options a stack was made with, a JSON object), `title`.
public enum RecordingJSON {
    /// Appends one recording object (no newline) to `out`.
    public static func encode(_ r: Recording, file: String?, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONOutput.write(r.id, into: &out)
        if let file { key("file", &out); JSONOutput.write(file, into: &out) }
        key("file_name", &out); JSONOutput.write(r.fileName, into: &out)
        key("original_path", &out); JSONOutput.write(r.originalPath, into: &out)
        key("created_at", &out); JSONOutput.write(Recording.iso8601(r.createdAt), into: &out)
        key("duration", &out); number(r.media.duration, &out)
        key("width", &out); JSONOutput.write(Int64(r.media.width), into: &out)
        key("height", &out); JSONOutput.write(Int64(r.media.height), into: &out)
        key("fps", &out); number(r.media.fps, &out)
        key("video_codec", &out); JSONOutput.write(r.media.videoCodec, into: &out)
        key("has_audio", &out); out.append(contentsOf: (r.media.hasAudio ? "true" : "false").utf8)
        key("bytes", &out); JSONOutput.write(r.bytes, into: &out)
        key("sha256", &out); JSONOutput.write(r.sha256, into: &out)
        key("sources", &out)
        if let sources = r.sources {
            out.append(UInt8(ascii: "["))
            for (index, source) in sources.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONOutput.write(source, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        } else {
            null(&out)
        }
        key("stack_options", &out)
        if let options = r.stackOptions { writeObject(options, into: &out) } else { null(&out) }
        key("title", &out)
        if let title = r.title { JSONOutput.write(title, into: &out) } else { null(&out) }
        out.append(UInt8(ascii: "}"))
    }

    /// One JSON array, newline-terminated; `file` gives each recording's stored path.
    public static func array(_ recordings: [Recording], file: (Recording) -> String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(recordings.count * 420 + 3)
        for (index, recording) in recordings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(recording, file: file(recording), into: &out)
        }
        out.append(contentsOf: "]\n".utf8)
        return out
    }

    /// One object per line.
    public static func ndjson(_ recordings: [Recording], file: (Recording) -> String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(recordings.count * 420)
        for recording in recordings {
            encode(recording, file: file(recording), into: &out)
            out.append(0x0A)
        }
        return out
    }

    /// Appends one object (no newline) for a file given to `feed roll add`: an added one is its
    /// recording's object followed by `"outcome":"added"`; a skipped one is
    /// `{"outcome":"duplicate","original_path":…,"duplicate_of":ID}`.
    public static func encode(_ outcome: AddOutcome, file: (Recording) -> String, into out: inout [UInt8]) {
        switch outcome {
        case let .added(recording):
            encode(recording, file: file(recording), into: &out)
            out.removeLast()
            key("outcome", &out); JSONOutput.write("added", into: &out)
        case let .duplicate(path, existingID):
            out.append(contentsOf: #"{"outcome":"duplicate""#.utf8)
            key("original_path", &out); JSONOutput.write(path, into: &out)
            key("duplicate_of", &out); JSONOutput.write(existingID, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The outcomes of `feed roll add` as one JSON array, newline-terminated, or (`lines`) one object per line.
    public static func outcomes(_ outcomes: [AddOutcome], lines: Bool = false, file: (Recording) -> String) -> [UInt8] {
        var out: [UInt8] = lines ? [] : [UInt8(ascii: "[")]
        for (index, outcome) in outcomes.enumerated() {
            if index > 0 && !lines { out.append(UInt8(ascii: ",")) }
            encode(outcome, file: file, into: &out)
            if lines { out.append(0x0A) }
        }
        if !lines { out.append(contentsOf: "]\n".utf8) }
        return out
    }

    private static func key(_ name: StaticString, _ out: inout [UInt8]) {
        out.append(contentsOf: #",""#.utf8)
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(contentsOf: #"":"#.utf8)
    }

    private static func number(_ value: Double, _ out: inout [UInt8]) {
        if value.isFinite { out.append(contentsOf: value.description.utf8) } else { null(&out) }
    }

    private static func null(_ out: inout [UInt8]) { out.append(contentsOf: "null".utf8) }

    /// Appends `text` as it is when it is one JSON object (what feed stores as a recording's
    /// stack options), else as a string: an object in the output, never JSON inside a string.
    static func writeObject(_ text: String, into out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "{"), (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] {
            out.append(contentsOf: bytes)
        } else {
            JSONOutput.write(text, into: &out)
        }
    }
}
