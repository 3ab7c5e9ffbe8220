import ArgumentParser
import FeedCore
import FeedSocial

/// `feed unpublish ID`: a post leaves the feed; its recording stays in the roll.
struct UnpublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpublish",
        abstract: "Unpublish a post; its recording stays in the roll. Prints the post as it was.",
        discussion: """
            Its likes, comments and reports go with it, and its author's counts lose them; the \
            video.removed webhook is queued. An unknown post exits 65.

            EXAMPLES:
              feed unpublish 1000000000001
              feed remote unpublish 1000000000001
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The post's id.", valueName: "id")) var id: Int64
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        try await store.withRoll { roll in
            let pool = BlockingPool(name: "feed.publish", threads: 1)
            defer { pool.shutdown() }
            let social = Social(roll: roll, store: try roll.socialStore(), pool: pool)
            let post = try await social.unpublish(id: id, viewer: .admin)
            try PostRecord(post).print(json: json)
        }
    }
}
