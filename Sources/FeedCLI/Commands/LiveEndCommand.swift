import ArgumentParser
import FeedCore

/// `feed live end ID`: ends a stream for good.
struct LiveEndCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end",
        abstract: "End a live stream for good; prints it.",
        discussion: """
            An ended stream takes no publisher again (its key is refused); the server holding its \
            publisher disconnects it, and makes its recording. Ending it here queues the live.ended \
            webhook, as DELETE /live/ID does. Ending an ended stream changes nothing and is not an \
            error.

            EXAMPLES:
              feed live end 1
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The stream's id.", valueName: "id")) var id: Int64
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        try await store.withRoll { roll in
            let (ended, _, notQueued) = try await roll.endLiveStream(id: id)
            if let notQueued {
                try? StandardStream.error.write("feed: live stream \(id): ended, but its live.ended webhook was not queued: \(notQueued.description)\n")
            }
            try LiveStreamRecord.print(ended, json: json)
        }
    }
}
