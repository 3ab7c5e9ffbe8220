import FeedCore

/// Writes a list of videos to stdout as a table, one JSON array or NDJSON.
enum VideoList {
    /// Writes `videos` in `mode`. JSON goes through FeedCore's `JSONOutput` in one write.
    static func write(_ videos: [Video], mode: OutputFormat.Mode) throws(OutputError) {
        switch mode {
        case .json: try StandardStream.output.write(JSONOutput.array(videos))
        case .ndjson: try StandardStream.output.write(JSONOutput.ndjson(videos))
        case .text:
            let style = Style(enabled: Terminal.usesColor(.output))
            try StandardStream.output.write(table(videos).render(width: Terminal.width(), style: style))
        }
    }

    /// The table: id, user, topic, viewers, likes (counts right-aligned), description (cut to fit).
    static func table(_ videos: [Video]) -> Table {
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
            table.rows.append([
                video.id.description,
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
