import FeedCore

/// One live stream as `feed live show` prints it: `key: value` lines (the JSON names), or JSON.
enum LiveStreamRecord {
    /// The stream's fields, in ``LiveStreamJSON``'s order; the key only when `showKey`.
    static func record(_ stream: LiveStream, showKey: Bool) -> RecordList {
        var list = RecordList()
        list.add("id", String(stream.id))
        list.add("title", stream.title)
        list.add("state", stream.state.rawValue)
        if showKey { list.add("stream_key", stream.streamKey) }
        list.add("owner", stream.owner)
        list.add("created_at", Recording.iso8601(stream.createdAt))
        list.add("went_live_at", stream.wentLiveAt.map(Recording.iso8601))
        list.add("ended_at", stream.endedAt.map(Recording.iso8601))
        list.add("recording_id", stream.recordingID.map(String.init))
        list.add("error", stream.error)
        return list
    }

    /// Writes `stream` to stdout: JSON (one line) or the record.
    static func print(_ stream: LiveStream, json: Bool) throws {
        if json {
            var out: [UInt8] = []
            LiveStreamJSON.encode(stream, showKey: true, into: &out)
            try StandardStream.output.write(out + [0x0A])
        } else {
            try StandardStream.output.write(record(stream, showKey: true).render(style: Style(enabled: Terminal.usesColor(.output))))
        }
    }
}
