import ArgumentParser
import FeedClient
import FeedCore
import Foundation

/// `feed remote list`: `feed list` of the server's feed (`GET /videos`, with the same query).
struct RemoteListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the server's feed, as 'feed list' does.",
        discussion: """
            The server filters, sorts and pages (GET /videos with --sort, --reverse, --topic, --user, \
            --tag, --limit, --offset); the ♥ column shows the server's likes (GET /likes). Media \
            paths are the server's URLs.

            EXAMPLES:
              feed remote list --server http://127.0.0.1:8080
              FEED_SERVER=http://127.0.0.1:8080 feed remote list --sort likes --json
            """
    )

    @OptionGroup var server: ServerOptions
    @OptionGroup var query: VideoQueryOptions
    @OptionGroup var output: OutputFormat

    func run() async throws {
        let (videos, liked) = try await server.with { remote in try await RemoteFailure.run(remote.url) {
            let api = remote.client.api
            let list = try await api.listVideos(query: .init(
                sort: .init(rawValue: query.sort.rawValue), reverse: query.reverse ? "true" : nil, topic: query.topic,
                user: query.user, tag: query.tag, limit: query.limit.map(Int64.init), offset: query.offset > 0 ? Int64(query.offset) : nil)).ok.body.json
            let likes = output.mode == .text ? try await api.listLikes().ok.body.json.videos.map(\.id) : []
            // The same JSON, read by the same loader as a local feed file.
            let feed = try FeedLoader.load(bytes: Array(try JSONEncoder().encode(list)), source: "\(remote.url)/videos", format: .liver)
            return (feed.videos, Set(likes.map { "\($0)" }))
        } }
        try VideoList.write(videos, mode: output.mode, liked: liked)
    }
}
