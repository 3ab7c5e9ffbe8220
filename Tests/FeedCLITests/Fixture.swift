import FeedCore

/// The demo feed's published text, as tests write it into their own temporary files.
enum Fixture {
    /// `Fixtures/videos.json`: 5 LIVEr videos, with trailing commas.
    static var videos: String { String(decoding: DemoFeed.videosJSON, as: UTF8.self) }
    /// `Fixtures/comments.json`: 15 comments.
    static var comments: String { String(decoding: DemoFeed.commentsJSON, as: UTF8.self) }
    /// The demo video ids in file order, as the foundation issue publishes them.
    static let videoIDs = [1235, 1450, 1783, 1739, 1515]

    /// The demo comment ids in file order, read from the fixture text.
    static var commentIDs: [Int] {
        comments.matches(of: /"id"\s*:\s*(\d+)/).compactMap { Int($0.output.1) }
    }

    /// A LIVEr feed of the given videos (id, username, likes, description), minimal fields.
    static func feed(_ videos: [(id: Int, user: String, likes: Int, description: String)]) -> String {
        let items = videos.map { video in
            """
                {"id": \(video.id), "userID": 1, "username": "\(video.user)", "description": "\(video.description)",
                 "topic": "t", "viewers": \(video.likes * 10), "likes": \(video.likes),
                 "video": "https://example.com/\(video.id).mp4", "thumbnail": "https://example.com/\(video.id).png"}
            """
        }
        return "{\"videos\": [\n" + items.joined(separator: ",\n") + "\n]}\n"
    }

    /// 1-based line and column of the first occurrence of `needle` in `text` (ASCII text).
    static func location(of needle: String, in text: String) -> (line: Int, column: Int)? {
        guard let range = text.range(of: needle) else { return nil }
        let before = text[..<range.lowerBound]
        let line = before.count(where: { $0 == "\n" }) + 1
        let column = before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex, to: before.endIndex) + 1
        return (line, column)
    }
}
