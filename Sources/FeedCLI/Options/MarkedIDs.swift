import ArgumentParser
import FeedCore

/// The `ID…` of `feed like / unlike / bookmark / unbookmark`, and the one way they change a mark.
struct MarkedIDs: ParsableArguments {
    @Argument(help: ArgumentHelp("Feed video ids, as `feed list` shows them.", valueName: "id"))
    var ids: [String]

    @OptionGroup var store: CatalogOptions

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one video id") }
    }

    /// Puts `mark` on (or takes it off) every id, saying for each whether anything changed:
    /// `liked 1450`, `1450 was already liked`, `unliked 1450`, `1450 was not liked`.
    func set(_ mark: VideoMark, _ on: Bool) async throws {
        let roll = try await RollCommand.open(store: store)
        let word = mark == .like ? "liked" : "bookmarked"
        for id in ids {
            let changed = try await roll.setMark(mark, on, videoID: id)
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
