import FeedCore
import FeedRemote
import Foundation

/// `feed cache`'s table, total line and JSON.
enum CacheListing {
    /// URL (never cut), size, last used (local time, to the minute), state.
    static func table(_ entries: [ClipCacheEntry]) -> Table {
        var table = Table(columns: [
            .init(header: "URL"),
            .init(header: "BYTES", rightAligned: true),
            .init(header: "LAST USED"),
            .init(header: "STATE"),
        ])
        for entry in entries {
            table.rows.append([entry.url, String(entry.bytes), lastUsed(entry.lastUsed), entry.complete ? "complete" : "partial"])
        }
        return table
    }

    /// "3 clips, 12.5 MiB of 1 GiB in /home/u/.cache/feed/clips"
    static func total(_ count: Int, bytes: Int64, limit: Int64, folder: String) -> String {
        "\(count) \(count == 1 ? "clip" : "clips"), \(size(bytes)) of \(size(limit)) in \(folder)\n"
    }

    /// Bytes in binary units with one decimal: "0 B", "512 B", "12.5 MiB", "1 GiB".
    static func size(_ bytes: Int64) -> String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes), unit = 0
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        let text = String(format: "%.1f", value)
        return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " " + units[unit]
    }

    /// The JSON object, newline-terminated.
    static func json(_ entries: [ClipCacheEntry], folder: String, bytes: Int64, limit: Int64) -> [UInt8] {
        let object: [String: Any] = [
            "folder": folder, "bytes": bytes, "limit": limit,
            "entries": entries.map { entry in
                ["url": entry.url, "bytes": entry.bytes, "last_used": Recording.iso8601(entry.lastUsed), "complete": entry.complete] as [String: Any]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    private static func lastUsed(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
