import ArgumentParser

/// `feed live`: the catalog's live streams. With no subcommand it lists (same as `feed live list`).
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Live streams: create, list, show, end them and give them new keys.",
        discussion: """
            A live stream is a row of the roll's catalog (SQLite, or PostgreSQL with --catalog): \
            a title and a secret stream key a publisher sends (OBS: the key in "Stream Key"; \
            ffmpeg: rtmp://HOST:PORT/live/KEY). It is idle until a publisher is accepted, active \
            while one publishes, and ended for good once ended. These commands work on the \
            catalog, as its admin: they print the key; GET /live shows it to the stream's owner \
            only. An unknown id exits 65, and so does a new key for an ended stream.

            EXAMPLES:
              feed live create "Friday launch"
              feed live create "Friday launch" --json | jq -r .stream_key
              feed live list
              feed live show 1
              feed live key 1
              feed live end 1
              feed live publish clip.mp4 --to rtmp://127.0.0.1:1935/live/KEY
            """,
        subcommands: [LiveListCommand.self, LiveCreateCommand.self, LiveShowCommand.self, LiveKeyCommand.self, LiveEndCommand.self,
                      LivePublishCommand.self],
        defaultSubcommand: LiveListCommand.self
    )
}
