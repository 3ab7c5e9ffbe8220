import Foundation
import FeedCore

/// How roll commands print recordings: a table, a JSON array, NDJSON, or one record.
enum RollOutput {
    /// Writes `recordings` to stdout in `mode`.
    static func write(_ recordings: [Recording], roll: Roll, mode: OutputFormat.Mode) throws {
        try write(recordings, mode: mode) { roll.address(of: $0) }
    }

    /// Writes `recordings` in `mode`, `file` giving each one's `file` field (a path here, the
    /// server's URL for `feed remote roll`).
    static func write(_ recordings: [Recording], mode: OutputFormat.Mode, file: (Recording) -> String) throws {
        switch mode {
        case .json:
            try StandardStream.output.write(RecordingJSON.array(recordings, file: file))
        case .ndjson:
            try StandardStream.output.write(RecordingJSON.ndjson(recordings, file: file))
        case .text:
            try StandardStream.output.write(table(recordings).render(width: Terminal.width(), style: Style(enabled: Terminal.usesColor(.output))))
        }
    }

    /// One recording as a JSON object.
    static func json(_ recording: Recording, roll: Roll) -> [UInt8] {
        var out: [UInt8] = []
        RecordingJSON.encode(recording, file: roll.url(of: recording).path, into: &out)
        return out
    }

    /// The table: id, added, duration, size, bytes, file name, title (only the title is cut to
    /// fit a terminal; "-" without one).
    static func table(_ recordings: [Recording]) -> Table {
        var table = Table(columns: [
            .init(header: "ID", rightAligned: true),
            .init(header: "ADDED"),
            .init(header: "DURATION", rightAligned: true),
            .init(header: "SIZE", rightAligned: true),
            .init(header: "BYTES", rightAligned: true),
            .init(header: "FILE"),
            .init(header: "TITLE", flexible: true),
        ])
        table.rows.reserveCapacity(recordings.count)
        for r in recordings {
            table.rows.append([
                String(r.id), String(Recording.iso8601(r.createdAt).prefix(16)).replacingOccurrences(of: "T", with: " "),
                duration(r.media.duration), "\(r.media.width)x\(r.media.height)", bytes(r.bytes), r.fileName, r.title ?? "-",
            ])
        }
        return table
    }

    /// Every field of one recording as `key: value` lines.
    static func record(_ r: Recording, roll: Roll) -> RecordList {
        var list = RecordList()
        list.add("id", String(r.id))
        list.add("title", r.title)
        list.add("file", roll.url(of: r).path)
        list.add("original_path", r.originalPath)
        list.add("created_at", Recording.iso8601(r.createdAt))
        list.add("duration", duration(r.media.duration))
        list.add("size", "\(r.media.width)x\(r.media.height)")
        list.add("fps", String(format: "%.3g", r.media.fps))
        list.add("video_codec", r.media.videoCodec)
        list.add("has_audio", r.media.hasAudio ? "yes" : "no")
        list.add("bytes", "\(r.bytes) (\(bytes(r.bytes)))")
        list.add("sha256", r.sha256)
        list.add("sources", r.sources?.joined(separator: ", "))
        list.add("stack_options", r.stackOptions)
        return list
    }

    /// `12.3s`, `1:02.5`.
    static func duration(_ seconds: Double) -> String {
        seconds < 60 ? String(format: "%.1fs", seconds) : String(format: "%d:%04.1f", Int(saturating: seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
    }

    /// `512 B`, `1.2 MB` (powers of 1000).
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count), unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }
}
