import Foundation

extension Roll {
    /// Puts `mark` on (or, with `on` false, takes it off) the feed video `videoID`.
    /// Returns whether anything changed (liking a liked video changes nothing).
    /// - Throws: ``RollError/invalidArgument(_:)`` for an empty id.
    @discardableResult
    public func setMark(_ mark: VideoMark, _ on: Bool = true, videoID: String) async throws(RollError) -> Bool {
        guard !videoID.isEmpty else { throw RollError.invalidArgument("a video id cannot be empty") }
        return try await markStore.setMark(mark, on, videoID: videoID)
    }

    /// The marks on feed video `videoID`.
    public func marks(videoID: String) async throws(RollError) -> Set<VideoMark> {
        try await markStore.marks()[videoID] ?? []
    }

    /// Every marked video's marks, by feed video id (for a ♥ column in a table).
    public func marks() async throws(RollError) -> [String: Set<VideoMark>] {
        try await markStore.marks()
    }

    /// Ids of the feed videos carrying `mark`, most recently marked first
    /// (`feed list --liked` / `--bookmarked` filter a feed by these).
    public func videoIDs(marked mark: VideoMark) async throws(RollError) -> [String] {
        try await markStore.videoIDs(marked: mark)
    }
}

extension Roll {
    /// The marks of the roll at `paths` without creating anything: empty when there is no
    /// roll yet (for a ♥ column in `feed list`, which must not create a roll as a side effect).
    public static func existingMarks(paths: RollPaths = .fromEnvironment()) async throws(RollError) -> [String: Set<VideoMark>] {
        guard FileManager.default.fileExists(atPath: paths.database.path) else { return [:] }
        return try await Roll(paths: paths, prober: MediaRecordingProber(), access: .readOnly).marks()
    }
}
