import Foundation

extension Roll {
    /// The videos of `feed` that carry every mark in `marks`, in their feed order; all of
    /// them when `marks` is empty. Matches by the id as `feed list` prints it.
    /// (`feed list --liked` / `--bookmarked` filter with this before sorting and paging.)
    public func videos(of feed: Feed, marked marks: Set<VideoMark>) async throws(RollError) -> [Video] {
        guard !marks.isEmpty else { return feed.videos }
        return Roll.videos(feed.videos, marked: marks, in: try await self.marks(feed: feed.key))
    }

    /// The videos that carry every mark in `marks` according to `all` (video id → its marks,
    /// as `marks()` or `existingMarks()` return them), in their feed order.
    public static func videos(_ videos: [Video], marked marks: Set<VideoMark>,
                              in all: [String: Set<VideoMark>]) -> [Video] {
        guard !marks.isEmpty else { return videos }
        return videos.filter { video in all[video.id.description].map { marks.isSubset(of: $0) } ?? false }
    }

    /// Saves the output of `feed stack` into the roll with its two sources and the options
    /// used (any Encodable, stored as JSON text). The file is copied (or moved with `move`);
    /// `commit`, when given, inserts the row (see ``AddOptions/commit``), and `stage` learns the
    /// new file's name first (see ``AddOptions/stage``).
    @discardableResult
    public func addStacked(_ path: String, front: String, back: String, options: some Encodable,
                           title: String? = nil, move: Bool = false, commit: RecordingCommit? = nil,
                           stage: (@Sendable (String) async throws(RollError) -> Void)? = nil) async throws(RollError) -> Recording {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: String
        do { json = String(decoding: try encoder.encode(options), as: UTF8.self) } catch {
            throw RollError.invalidArgument("stack options cannot be encoded: \(error)")
        }
        let sources = [front, back].map { Roll.absolute($0).path }
        var options = AddOptions(mode: move ? .move : .copy, allowDuplicate: true, title: title, sources: sources, stackOptions: json)
        options.commit = commit
        options.stage = stage
        let added = try await add([path], options: options)
        guard let recording = added.first else { throw RollError.missingFile(path: path) }
        return recording
    }
}
