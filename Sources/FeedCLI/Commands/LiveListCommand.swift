import ArgumentParser
import FeedCore

/// `feed live list`: the catalog's live streams, newest first.
struct LiveListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List live streams, newest first (keys not shown: see feed live show).",
        discussion: """
            The table shows ID, STATE, TITLE, OWNER and when each was created; --json gives an \
            array of the fields feed live show --json has, without stream_key.

            EXAMPLES:
              feed live list
              feed live list --state active --json | jq '.[].id'
            """
    )

    @OptionGroup var store: CatalogOptions
    @Option(help: ArgumentHelp("Only streams in this state: idle, active, ended.", valueName: "state")) var state: LiveStream.State?
    @Option(help: ArgumentHelp("Only this user's streams.", valueName: "user")) var owner: String?
    @Option(parsing: .unconditional, help: "At most this many (0 = all).") var limit = 50
    @Flag(help: "One JSON array.") var json = false

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() async throws {
        try await store.withRoll(.readOnly) { roll in
            var streams = try await LiveStreams(store: roll.catalog).page(ownedBy: owner)
            if let state { streams = streams.filter { $0.state == state } }
            if limit > 0 { streams = Array(streams.prefix(limit)) }
            if json { return try StandardStream.output.write(LiveStreamJSON.array(streams, showKey: { _ in false })) }
            var table = Table(columns: [
                .init(header: "ID", rightAligned: true), .init(header: "STATE"), .init(header: "TITLE", flexible: true),
                .init(header: "OWNER"), .init(header: "CREATED"),
            ])
            for stream in streams {
                table.rows.append([String(stream.id), stream.state.rawValue, stream.title, stream.owner ?? "",
                                   Recording.iso8601(stream.createdAt)])
            }
            try StandardStream.output.write(table.render(width: Terminal.width(), style: Style(enabled: Terminal.usesColor(.output))))
        }
    }
}

extension LiveStream.State: ExpressibleByArgument {}
