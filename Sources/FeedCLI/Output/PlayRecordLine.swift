import FeedCore
import FeedPlayer
import Foundation

/// Writes a headless `feed play` record as one JSON line on stdout.
enum PlayRecordLine {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// One line for `record`; a closed stdout ends the line silently (the session goes on).
    static func write(_ record: HeadlessPlayback.Record) {
        guard var bytes = try? encoder.encode(record) else { return }
        bytes.append(0x0A)
        try? StandardStream.output.write(Array(bytes))
    }
}
