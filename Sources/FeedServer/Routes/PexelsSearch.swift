import FeedCore
import Foundation

/// Pexels' video search over the feed: videos whose description, username, topic or hashtags
/// contain every word of the query, case-insensitive, in feed order.
///
/// The feed does not change while served, so every video's words are lowercased, put in Unicode
/// canonical composition (NFC, so "é" typed as one character or as "e" and an accent match
/// each other) and laid end to end in one UTF-8 buffer when the server starts. A query scans
/// that buffer for its longest word (`memchr`, then `memcmp`), checks its other words only
/// inside the videos that word hit, and keeps their positions, not copies. On a 100,000-video
/// feed this took a search from 13 requests a second (matching `String`s video by video) to
/// about 900 (`bench/lookup.sh`).
struct PexelsSearch: Sendable {
    private let videos: [Video]
    /// Every video's searchable words, in feed order, each video's ended by a newline.
    private let text: [UInt8]
    /// Where each video's words start in `text`, and one more entry: the end of `text`.
    private let starts: [Int]

    init(_ videos: [Video]) {
        self.videos = videos
        var text: [UInt8] = [], starts: [Int] = []
        starts.reserveCapacity(videos.count + 1)
        for video in videos {
            starts.append(text.count)
            let words = ([video.description, video.username, video.topic ?? ""] + video.hashtags).joined(separator: " ")
            text.append(contentsOf: Self.normalized(words))
            text.append(UInt8(ascii: "\n"))
        }
        starts.append(text.count)
        self.text = text
        self.starts = starts
    }

    /// The videos matching every word of `query` (words split at spaces and `+`), in feed order;
    /// every video for a query with no word. Each is read from the feed only when used, so a
    /// query that matches most of a big feed costs a list of positions, not a copy of the feed.
    func matches(_ query: String) -> LazyMapCollection<[Int], Video> {
        let videos = self.videos
        return positions(query).lazy.map { videos[$0] }
    }

    /// The positions in the feed of the videos `matches` answers.
    private func positions(_ query: String) -> [Int] {
        let words = Self.normalized(query).split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "+") })
            .map(Array.init).sorted { $0.count > $1.count }
        guard let longest = words.first else { return Array(videos.indices) }
        let others = words.dropFirst()
        var found: [Int] = []
        text.withUnsafeBytes { text in
            var video = 0, from = 0
            while let hit = Self.find(longest, in: text, from: from) {
                while starts[video + 1] <= hit { video += 1 }
                let end = starts[video + 1] - 1  // the video's newline
                guard hit + longest.count <= end else {
                    from = hit + 1  // runs past this video's words: not a match of its own
                    continue
                }
                let words = UnsafeRawBufferPointer(rebasing: text[starts[video]..<end])
                if others.allSatisfy({ Self.find($0, in: words, from: 0) != nil }) { found.append(video) }
                from = starts[video + 1]
            }
        }
        return found
    }

    /// `string` as it is searched: lowercased, in canonical composition, as UTF-8. ASCII is its
    /// own composition, so only other text goes through Foundation's (most of a feed's words
    /// are ASCII, and composing every video's added 0.1–0.5 s to the start of a server on
    /// 100,000 videos).
    private static func normalized(_ string: String) -> [UInt8] {
        let lower = string.lowercased()
        return lower.utf8.allSatisfy { $0 < 0x80 } ? Array(lower.utf8) : Array(lower.precomposedStringWithCanonicalMapping.utf8)
    }

    /// The offset of the first `needle` in `haystack` at or after `from`; nil when there is none.
    /// `memchr` finds each place the needle's first byte occurs and `memcmp` checks the rest
    /// (glibc's `memmem` is not exported to Swift).
    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = haystack.baseAddress, let first = needle.first else { return nil }
        let last = haystack.count - needle.count  // the last offset the needle can start at
        var at = from
        return needle.withUnsafeBytes { needle in
            while at <= last {
                guard let found = memchr(base + at, Int32(first), last - at + 1) else { return nil }
                at = base.distance(to: UnsafeRawPointer(found))
                if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
                at += 1
            }
            return nil
        }
    }
}
