import ArgumentParser
import FeedCore
import FeedSocial

/// `feed publish RECORDING`: a recording of the roll becomes a post of the catalog's feed.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a recording of the roll as a post; prints the post.",
        discussion: """
            The post is the recording's owner's (a JWT's sub, for what came through feed serve); a \
            recording with no owner (added with feed roll add) needs --author. Publishing makes the \
            poster at once and queues the HLS ladder as a job (a worker or feed serve --jobs runs it), \
            and queues the video.published webhook. Posts are listed first by GET /videos, to the \
            users the visibility allows: public (everyone), followers (the author's followers) or \
            private (the author). A description is at most 2,200 characters, line breaks allowed; \
            its #hashtags and @mentions are parsed. An unknown recording exits 65, and so does one \
            published already; a description too long exits 65 too.

            EXAMPLES:
              feed publish 3 --author alice --description "Tacos #food"
              feed publish 3 --visibility followers --json
              feed remote publish 3 --description "Beach day"
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The recording's id (feed roll list).", valueName: "recording")) var recording: Int64
    @Option(help: ArgumentHelp("What the post says.", valueName: "text")) var description = ""
    @Option(help: ArgumentHelp("Who sees it: public, followers or private.", valueName: "who")) var visibility: VisibilityOption = .public
    @Option(help: ArgumentHelp("The author, for a recording with no owner.", valueName: "user")) var author: String?
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        let text = try PostText(validating: description)
        try await store.withRoll { roll in
            let pool = BlockingPool(name: "feed.publish", threads: 1)
            defer { pool.shutdown() }
            let social = Social(roll: roll, store: try roll.socialStore(), pool: pool)
            let post = try await social.publish(PostDraft(recordingID: recording, viewer: .admin, author: author, text: text,
                                                          visibility: visibility.value))
            try PostRecord(post).print(json: json)
        }
    }
}

/// `--visibility`'s values.
enum VisibilityOption: String, ExpressibleByArgument, CaseIterable {
    case `public`, followers, `private`
    var value: Visibility { Visibility(rawValue: rawValue) ?? .public }
}
