import Foundation

/// Writes a live stream as JSON, for `feed live … --json` and the server's `/live` routes.
///
/// Fields, in this order, null where absent: `id`, `title`, `state` (`idle`, `active`, `ended`),
/// `stream_key` (only when `showKey`: to the stream's owner and the admin), `owner`,
/// `created_at`, `went_live_at`, `ended_at` (ISO 8601 UTC), `recording_id`, `error`; then the
/// `extra` fields a server adds (`rtmp_url`, `playback_url`, `viewers`, `part_target`), each a
/// key and its already-encoded JSON value.
public enum LiveStreamJSON {
    /// Appends one stream object (no newline) to `out`.
    public static func encode(_ stream: LiveStream, showKey: Bool, extra: [(String, [UInt8])] = [], into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONOutput.write(stream.id, into: &out)
        field("title", &out); JSONOutput.write(stream.title, into: &out)
        field("state", &out); JSONOutput.write(stream.state.rawValue, into: &out)
        if showKey { field("stream_key", &out); JSONOutput.write(stream.streamKey, into: &out) }
        field("owner", &out); optional(stream.owner, &out)
        field("created_at", &out); JSONOutput.write(Recording.iso8601(stream.createdAt), into: &out)
        field("went_live_at", &out); optional(stream.wentLiveAt.map(Recording.iso8601), &out)
        field("ended_at", &out); optional(stream.endedAt.map(Recording.iso8601), &out)
        field("recording_id", &out)
        if let id = stream.recordingID { JSONOutput.write(id, into: &out) } else { out.append(contentsOf: "null".utf8) }
        field("error", &out); optional(stream.error, &out)
        for (key, value) in extra {
            field(key, &out)
            out.append(contentsOf: value)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// One JSON array of `streams`, newline-terminated.
    public static func array(_ streams: [LiveStream], showKey: (LiveStream) -> Bool) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, stream) in streams.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(stream, showKey: showKey(stream), into: &out)
        }
        out.append(contentsOf: "]\n".utf8)
        return out
    }

    private static func field(_ name: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        JSONOutput.write(name, into: &out)
        out.append(UInt8(ascii: ":"))
    }

    private static func optional(_ text: String?, _ out: inout [UInt8]) {
        if let text { JSONOutput.write(text, into: &out) } else { out.append(contentsOf: "null".utf8) }
    }
}
