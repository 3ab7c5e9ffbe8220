import FeedCore
import Foundation

/// Pexels' video search over the feed: videos whose description, username, topic or hashtags
/// contain every word of the query, case-insensitive, in feed order. Each video's words are
/// joined and lowercased once, when the server starts (the feed does not change while served), so
/// a query only reads them: on a 100,000-video feed, building them per request held a search to
/// 26 requests a second.
struct PexelsSearch: Sendable {
    private let videos: [Video]
    /// Per video, in the same order: its searchable words, lowercased, space-separated.
    private let texts: [String]

    init(_ videos: [Video]) {
        self.videos = videos
        texts = videos.map { video in
            ([video.description, video.username, video.topic ?? ""] + video.hashtags).joined(separator: " ").lowercased()
        }
    }

    /// The videos matching every word of `query` (words split at spaces and `+`).
    func matches(_ query: String) -> [Video] {
        let words = query.lowercased().split(whereSeparator: { $0 == " " || $0 == "+" })
        return zip(videos, texts).compactMap { video, text in words.allSatisfy { text.contains($0) } ? video : nil }
    }
}
