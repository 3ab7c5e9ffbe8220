import ArgumentParser
import FeedCore

/// `--liked` / `--bookmarked`: keep only feed videos marked with `feed like` / `feed bookmark`
/// (the marks live in the roll's database). For `feed list`; apply before sorting and paging.
struct MarkFilterOptions: ParsableArguments {
    @Flag(help: "Only videos you liked (feed like ID).")
    var liked = false

    @Flag(help: "Only videos you bookmarked (feed bookmark ID).")
    var bookmarked = false

    /// The marks asked for; empty when neither flag is given.
    var marks: Set<VideoMark> {
        var marks: Set<VideoMark> = []
        if liked { marks.insert(.like) }
        if bookmarked { marks.insert(.bookmark) }
        return marks
    }

    /// `feed`'s videos filtered by the flags (by the marks filed under its ``Feed/key``);
    /// untouched (and the roll not opened) without them. With no roll yet nothing is marked,
    /// and none is created.
    func apply(to feed: Feed) async throws -> [Video] {
        guard !marks.isEmpty else { return feed.videos }
        return Roll.videos(feed.videos, marked: marks, in: try await CatalogOptions.existingMarks(feed: feed.key))
    }
}
