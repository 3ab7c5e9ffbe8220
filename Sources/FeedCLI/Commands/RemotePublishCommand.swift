import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote publish RECORDING`: `POST /videos` on the server.
struct RemotePublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish one of your recordings on the server as a post; prints the post.",
        discussion: """
            The post is the token's user's (their recording); with the admin token, the recording's \
            owner's, and --author names it for a recording with no owner.

            EXAMPLES:
              feed remote publish 3 --description "Tacos #food"
              feed remote publish 3 --visibility followers --json
            """
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: ArgumentHelp("The recording's id (feed remote roll).", valueName: "recording")) var recording: Int64
    @Option(help: ArgumentHelp("What the post says.", valueName: "text")) var description = ""
    @Option(help: ArgumentHelp("Who sees it: public, followers or private.", valueName: "who")) var visibility: VisibilityOption = .public
    @Option(help: ArgumentHelp("The author, for a recording with no owner (the admin's).", valueName: "user")) var author: String?
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        let post = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.publishPost(body: .json(.init(recording: recording, description: description,
                                                                        visibility: .init(rawValue: visibility.rawValue), author: author)))
                .created.body.json
        } }
        try PostRecord(post).print(json: json)
    }
}

/// `feed remote unpublish ID`: `DELETE /videos/{id}` on the server.
struct RemoteUnpublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpublish",
        abstract: "Unpublish one of your posts on the server; its recording stays.",
        discussion: """
            EXAMPLES:
              feed remote unpublish 1000000000001
            """
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: ArgumentHelp("The post's id.", valueName: "id")) var id: Int64

    func run() async throws {
        _ = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            try await remote.client.api.unpublishPost(path: .init(id: id)).noContent
        } }
    }
}

extension PostRecord {
    /// A post as the server answered it.
    init(_ post: Components.Schemas.Post) {
        self.init(id: post.id, recording: post.recording, author: post.author, visibility: post.visibility.rawValue,
                  description: post.description, hashtags: post.hashtags, createdAt: post.createdAt, likes: Int64(post.likes),
                  comments: Int64(post.comments), shares: Int64(post.shares), hidden: post.hidden)
    }
}
