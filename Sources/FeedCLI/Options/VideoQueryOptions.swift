import ArgumentParser
import FeedCore

/// The filter, sort and paging options of `list`, turned into a `FeedQuery`.
struct VideoQueryOptions: ParsableArguments {
    @Option(help: "Order: feed (file order), likes or viewers (highest first), id (ascending).")
    var sort: FeedQuery.Sort = .feed

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Option(help: ArgumentHelp("Only videos with this topic (any case).", valueName: "topic"))
    var topic: String?

    @Option(help: ArgumentHelp("Only videos by this username (any case).", valueName: "username"))
    var user: String?

    @Option(help: ArgumentHelp("Only videos with this hashtag, with or without '#' (any case).", valueName: "tag"))
    var tag: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Show at most this many videos (0: all, as in every command and GET /videos?limit=0).", valueName: "n"))
    var limit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Skip this many videos first.", valueName: "n"))
    var offset = 0

    mutating func validate() throws {
        if let problem = query.problem(naming: { "--" + $0 }) { throw ValidationError(problem) }
    }

    /// The query these options describe.
    var query: FeedQuery {
        var query = FeedQuery()
        query.sort = sort
        query.reverse = reverse
        query.topic = topic
        query.user = user
        query.tag = tag
        query.limit = limit
        query.offset = offset
        return query
    }
}

extension FeedQuery.Sort: ExpressibleByArgument {}
