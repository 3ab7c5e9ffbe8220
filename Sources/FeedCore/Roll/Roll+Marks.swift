import Foundation

extension Roll {
    /// Puts `mark` on (or, with `on` false, takes it off) the video `videoID` of the feed whose
    /// ``Feed/key`` is `feed`. Returns whether anything changed (liking a liked video changes
    /// nothing).
    /// - Throws: ``RollError/invalidArgument(_:)`` for an empty id.
    @discardableResult
    public func setMark(_ mark: VideoMark, _ on: Bool = true, videoID: String, feed: String, owner: String = "") async throws(RollError) -> Bool {
        guard !videoID.isEmpty else { throw RollError.invalidArgument("a video id cannot be empty") }
        return try await catalog.setMark(mark, on, videoID: videoID, feed: feed, owner: owner)
    }

    /// The marks on the video `videoID` of the feed `feed`.
    public func marks(videoID: String, feed: String, owner: String = "") async throws(RollError) -> Set<VideoMark> {
        try await catalog.marks(feed: feed, owner: owner)[videoID] ?? []
    }

    /// Every marked video's marks in the feed `feed`, by video id (for a ♥ column in a table).
    public func marks(feed: String, owner: String = "") async throws(RollError) -> [String: Set<VideoMark>] {
        try await catalog.marks(feed: feed, owner: owner)
    }

    /// Ids of the videos of the feed `feed` carrying `mark`, most recently marked first
    /// (`GET /likes`, `GET /bookmarks`).
    public func videoIDs(marked mark: VideoMark, feed: String, owner: String = "") async throws(RollError) -> [String] {
        try await catalog.videoIDs(marked: mark, feed: feed, owner: owner)
    }
}
