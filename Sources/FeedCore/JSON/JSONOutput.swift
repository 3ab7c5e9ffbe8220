import Foundation

/// A fast, allocation-light JSON writer for `list --json` / `--ndjson` and `comments --json`.
///
/// Video fields, in this order (null where absent): `id`, `user_id`, `username`,
/// `profile_pic_url`, `description`, `topic`, `viewers`, `likes`, `video`, `thumbnail`,
/// `hashtags`, `duration`, `width`, `height`. Comment fields: `id`, `username`, `pic_url`,
/// `comment`. Ids are numbers or strings as in the feed. Output is UTF-8; `"`, `\` and
/// control characters are escaped, everything else is written as is.
public enum JSONOutput {
    /// Appends one video object (no newline) to `out`.
    public static func encode(_ video: Video, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        write(video.id, into: &out)
        out.append(contentsOf: #","user_id":"#.utf8)
        if let user = video.userID { write(user, into: &out) } else { writeNull(into: &out) }
        out.append(contentsOf: #","username":"#.utf8)
        write(video.username, into: &out)
        out.append(contentsOf: #","profile_pic_url":"#.utf8)
        write(video.profilePicURLText, into: &out)
        out.append(contentsOf: #","description":"#.utf8)
        write(video.description, into: &out)
        out.append(contentsOf: #","topic":"#.utf8)
        if let topic = video.topic { write(topic, into: &out) } else { writeNull(into: &out) }
        out.append(contentsOf: #","viewers":"#.utf8)
        write(Int64(video.viewers), into: &out)
        out.append(contentsOf: #","likes":"#.utf8)
        write(Int64(video.likes), into: &out)
        out.append(contentsOf: #","video":"#.utf8)
        write(video.videoText, into: &out)
        out.append(contentsOf: #","thumbnail":"#.utf8)
        write(video.thumbnailText, into: &out)
        out.append(contentsOf: #","hashtags":["#.utf8)
        for (index, tag) in video.hashtags.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(tag, into: &out)
        }
        out.append(contentsOf: #"],"duration":"#.utf8)
        if let duration = video.duration, duration.isFinite {
            out.append(contentsOf: duration.description.utf8)
        } else {
            writeNull(into: &out)
        }
        out.append(contentsOf: #","width":"#.utf8)
        if let width = video.width { write(Int64(width), into: &out) } else { writeNull(into: &out) }
        out.append(contentsOf: #","height":"#.utf8)
        if let height = video.height { write(Int64(height), into: &out) } else { writeNull(into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// One JSON array of `videos`, newline-terminated.
    public static func array(_ videos: [Video]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedSize(of: videos))
        out.append(UInt8(ascii: "["))
        for (index, video) in videos.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(video, into: &out)
        }
        out.append(contentsOf: "]\n".utf8)
        return out
    }

    /// One video object per line (NDJSON).
    public static func ndjson(_ videos: [Video]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedSize(of: videos))
        for video in videos {
            encode(video, into: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// Appends one comment object (no newline) to `out`.
    public static func encode(_ comment: Comment, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        write(comment.id, into: &out)
        out.append(contentsOf: #","username":"#.utf8)
        write(comment.username, into: &out)
        out.append(contentsOf: #","pic_url":"#.utf8)
        write(comment.picURL, into: &out)
        out.append(contentsOf: #","comment":"#.utf8)
        write(comment.comment, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `text` as a JSON string literal.
    public static func write(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            var runStart = 0
            for position in 0..<bytes.count {
                let byte = bytes[position]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                runStart = position + 1
                switch byte {
                case 0x22: out.append(contentsOf: #"\""#.utf8)
                case 0x5C: out.append(contentsOf: #"\\"#.utf8)
                case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                case 0x09: out.append(contentsOf: #"\t"#.utf8)
                case 0x08: out.append(contentsOf: #"\b"#.utf8)
                case 0x0C: out.append(contentsOf: #"\f"#.utf8)
                default:
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Appends `value` in decimal.
    static func write(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    static func write(_ id: FeedID, into out: inout [UInt8]) {
        switch id {
        case .int(let value): write(value, into: &out)
        case .string(let text): write(text, into: &out)
        }
    }

    private static func write(_ url: URL?, into out: inout [UInt8]) {
        if let url { write(url.absoluteString, into: &out) } else { writeNull(into: &out) }
    }

    static func write(_ text: String?, into out: inout [UInt8]) {
        if let text { write(text, into: &out) } else { writeNull(into: &out) }
    }

    static func writeNull(into out: inout [UInt8]) {
        out.append(contentsOf: "null".utf8)
    }

    /// Room for `videos`, judged from the first one, so big outputs are not copied while growing.
    private static func estimatedSize(of videos: [Video]) -> Int {
        guard let first = videos.first else { return 4 }
        var sample: [UInt8] = []
        encode(first, into: &sample)
        return (sample.count + sample.count / 4 + 16) * videos.count + 4
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
