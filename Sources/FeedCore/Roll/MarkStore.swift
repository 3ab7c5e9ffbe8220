/// Where likes and bookmarks of feed videos are kept: by video id as the feed prints it.
/// ``SQLiteCatalog`` keeps them beside the recordings, in the roll's database.
public protocol MarkStore: Sendable {
    /// Puts `mark` on (or, with `on` false, takes it off) the video `videoID`.
    /// Returns whether anything changed (liking a liked video changes nothing).
    func setMark(_ mark: VideoMark, _ on: Bool, videoID: String) async throws(RollError) -> Bool

    /// Every marked video's marks, by video id.
    func marks() async throws(RollError) -> [String: Set<VideoMark>]

    /// Ids of the videos carrying `mark`, most recently marked first.
    func videoIDs(marked mark: VideoMark) async throws(RollError) -> [String]
}
