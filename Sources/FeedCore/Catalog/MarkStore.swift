/// Likes and bookmarks of feed videos, filed per feed (``Feed/key``): id 100 of one feed is not
/// id 100 of another. Marks made before they were (a catalog from before its "marks per feed"
/// migration) are filed under the empty key and count in every feed, as they did then.
///
/// Each user has their own (`owner`, `feed serve`'s JWT `sub`); the empty owner is the CLI's, an
/// open server's and the admin token's, and holds every mark made before there were users.
public protocol MarkStore: Sendable {
    /// Puts `mark` on (or, with `on` false, takes it off) the video `videoID` of the feed
    /// `feed` (its ``Feed/key``). Returns whether anything changed (liking a liked video
    /// changes nothing). Taking a mark off also takes off an unfiled one of the same id.
    func setMark(_ mark: VideoMark, _ on: Bool, videoID: String, feed: String, owner: String) async throws(RollError) -> Bool

    /// Every marked video's marks in the feed `feed`, by video id.
    func marks(feed: String, owner: String) async throws(RollError) -> [String: Set<VideoMark>]

    /// Ids of the videos of the feed `feed` carrying `mark`, most recently marked first.
    func videoIDs(marked mark: VideoMark, feed: String, owner: String) async throws(RollError) -> [String]
}

extension MarkStore {
    /// ``setMark(_:_:videoID:feed:owner:)`` of the empty owner: the CLI's marks.
    public func setMark(_ mark: VideoMark, _ on: Bool, videoID: String, feed: String) async throws(RollError) -> Bool {
        try await setMark(mark, on, videoID: videoID, feed: feed, owner: "")
    }

    /// ``marks(feed:owner:)`` of the empty owner: the CLI's marks.
    public func marks(feed: String) async throws(RollError) -> [String: Set<VideoMark>] {
        try await marks(feed: feed, owner: "")
    }

    /// ``videoIDs(marked:feed:owner:)`` of the empty owner: the CLI's marks.
    public func videoIDs(marked mark: VideoMark, feed: String) async throws(RollError) -> [String] {
        try await videoIDs(marked: mark, feed: feed, owner: "")
    }
}
