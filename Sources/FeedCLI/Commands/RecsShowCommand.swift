import ArgumentParser
import FeedCore
import FeedRecs
import FeedSocial

/// `feed recs show --user NAME`: the page `GET /feed/for-you` would give, from the catalog.
struct RecsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "A viewer's next For You page and why each video is on it.",
        discussion: """
            The page GET /feed/for-you gives the user (or the device, for a viewer with no user), \
            with each video's reason: followed, similar_to (a video they watched), topic (a \
            hashtag), trending, new or explore. A user sees what the visibility rules let them; a \
            device, public posts only. With no model trained yet the page is trending. A cursor \
            from --json's next_cursor gives the page after it. No --user nor --device exits 64.

            EXAMPLES:
              feed recs show --user alice --limit 10
              feed recs --user alice --json | jq '.videos[] | {id, reason}'
            """
    )

    @OptionGroup var store: CatalogOptions
    @Option(help: ArgumentHelp("The viewer: a user's name.", valueName: "name")) var user: String?
    @Option(help: ArgumentHelp("The viewer: a device with no user.", valueName: "id")) var device: String?
    @Option(help: ArgumentHelp("Videos on the page (1…100).", valueName: "n")) var limit = 20
    @Option(help: ArgumentHelp("The page after this one (a next_cursor).", valueName: "cursor")) var cursor: String?
    @Flag(help: "One JSON object: videos (each with its reason), next_cursor, model_version.") var json = false

    func validate() throws {
        guard (1...Recs.maxLimit).contains(limit) else { throw ValidationError("--limit must be 1…\(Recs.maxLimit), not \(limit)") }
        guard user != nil || device != nil else { throw ValidationError("name the viewer: --user NAME or --device ID") }
    }

    func run() async throws {
        let actor = try Recs.actor(user: user, device: device, what: "feed recs")
        let cursor = try self.cursor.map { text throws(RecsError) in try ForYouCursor(text: text) }
        try await store.withRoll(.readOnly) { roll in
            let recs = Recs(store: try roll.recsStore())
            let viewer: Viewer = user.map(Viewer.user) ?? .anonymous
            let page = try await recs.forYou(actor: actor, viewer: viewer, limit: limit, cursor: cursor)
            try RecsPageOutput(page: page).print(json: json)
        }
    }
}
