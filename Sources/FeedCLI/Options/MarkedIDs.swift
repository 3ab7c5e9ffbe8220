import ArgumentParser
import FeedCore

/// The `ID…` of `feed like / unlike / bookmark / unbookmark`, and the one way they change a mark.
struct MarkedIDs: ParsableArguments {
    @Argument(help: ArgumentHelp("Feed video ids, as `feed list` shows them.", valueName: "id"))
    var ids: [String]

    @OptionGroup var store: CatalogOptions
    @OptionGroup var source: FeedSource

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one video id") }
    }

    /// Puts `mark` on (or takes it off) every id, saying for each whether anything changed:
    /// `liked 1450`, `1450 was already liked`, `unliked 1450`, `1450 was not liked`.
    /// Marking needs ids of the feed (`--feed`, `$FEED_PATH` or the demo): an unknown one exits
    /// 65 before anything changes, as `PUT /videos/{id}/like` answers 404. Unmarking takes any
    /// id, so a mark left by a video since removed can still be taken off.
    func set(_ mark: VideoMark, _ on: Bool) async throws {
        if on {
            let feed = try await source.load()
            for (id, video) in zip(ids, feed.videos(ids: ids)) where video == nil {
                throw FeedError.unknownID(FeedID(parsing: id), source: feed.source)
            }
        }
        let key = source.key
        try await RollCommand.withRoll(store: store) { roll in
            let word = mark == .like ? "liked" : "bookmarked"
            for id in ids {
                let changed = try await roll.setMark(mark, on, videoID: id, feed: key)
                let line = switch (changed, on) {
                case (true, true): "\(word) \(id)"
                case (true, false): "un\(word) \(id)"
                case (false, true): "\(id) was already \(word)"
                case (false, false): "\(id) was not \(word)"
                }
                try StandardStream.output.write(line + "\n")
            }
        }
    }
}
