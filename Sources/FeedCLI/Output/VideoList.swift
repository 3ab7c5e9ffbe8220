import FeedCore

/// Writes a list of videos to stdout as a table, one JSON array or NDJSON.
enum VideoList {
    /// Bytes gathered before each write: large enough for few syscalls, small enough that
    /// memory does not grow with the feed.
    static let chunkSize = 1 << 20

    /// Writes `videos` in `mode`. JSON is encoded by FeedCore's `JSONOutput` and written in
    /// chunks of about `chunkSize` bytes; the bytes equal `JSONOutput.array` / `.ndjson`.
    /// The table marks the ids in `liked` with ♥.
    static func write(_ videos: [Video], mode: OutputFormat.Mode, liked: Set<String> = []) throws(OutputError) {
        switch mode {
        case .json, .ndjson:
            let json = mode == .json
            var chunk: [UInt8] = []
            chunk.reserveCapacity(chunkSize + 4096)
            if json { chunk.append(UInt8(ascii: "[")) }
            for (index, video) in videos.enumerated() {
                if json && index > 0 { chunk.append(UInt8(ascii: ",")) }
                JSONOutput.encode(video, into: &chunk)
                if !json { chunk.append(UInt8(ascii: "\n")) }
                if chunk.count >= chunkSize {
                    try StandardStream.output.write(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            if json { chunk += [UInt8(ascii: "]"), UInt8(ascii: "\n")] }
            try StandardStream.output.write(chunk)
        case .text:
            let style = Style(enabled: Terminal.usesColor(.output))
            try StandardStream.output.write(table(videos, liked: liked).render(width: Terminal.width(), style: style))
        }
    }

    /// The table: id (♥ after it when liked), user, topic, viewers, likes (counts
    /// right-aligned), description (cut to fit).
    static func table(_ videos: [Video], liked: Set<String> = []) -> Table {
        var table = Table(columns: [
            .init(header: "ID"),
            .init(header: "USER"),
            .init(header: "TOPIC"),
            .init(header: "VIEWERS", rightAligned: true),
            .init(header: "LIKES", rightAligned: true),
            .init(header: "DESCRIPTION", flexible: true),
        ])
        table.rows.reserveCapacity(videos.count)
        for video in videos {
            let id = video.id.description
            table.rows.append([
                liked.contains(id) ? id + " ♥" : id,
                user(of: video),
                video.topic ?? "",
                String(video.viewers),
                String(video.likes),
                oneLine(video.description),
            ])
        }
        return table
    }

    /// The username, or the user id when the format has no names (FeedsApp).
    static func user(of video: Video) -> String {
        video.username.isEmpty ? (video.userID?.description ?? "") : video.username
    }

    /// Text on one line: runs of whitespace (newlines included) become one space, ends trimmed.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
