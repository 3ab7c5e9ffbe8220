import ArgumentParser
import FeedCore

/// `feed roll`: the camera roll. With no subcommand it lists (same as `feed roll list`).
struct RollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roll",
        abstract: "The camera roll: saved recordings, thumbnails, a contact sheet.",
        discussion: """
            The roll lives in $FEED_HOME (else $XDG_DATA_HOME/feed, else ~/.local/share/feed): \
            roll.sqlite and recordings/. Several feed processes may use it at once. With \
            --catalog postgres://… (or $FEED_CATALOG) the rows are in PostgreSQL and the files \
            under --media (or $FEED_MEDIA), shared by several machines; --media \
            s3://BUCKET[/PREFIX] keeps the files in a bucket (with either catalog). Ids are the \
            numbers `feed roll` shows; an unknown id exits with status 65.

            EXAMPLES:
              feed roll add clip.mp4 other.mov          # copy two clips in
              feed roll                                 # newest first, 50 at a time
              feed roll --json --limit 0 | jq length    # every recording
              feed roll thumb 3 -o poster.jpg           # a poster at 10 % in
              feed roll sheet -o sheet.png --columns 3  # the grid as one PNG
              feed roll verify --fix                    # repair what a crash left
              feed roll export > roll.json && feed list --feed roll.json
            """,
        subcommands: [
            RollListCommand.self, RollAddCommand.self, RollShowCommand.self, RollRemoveCommand.self,
            RollThumbCommand.self, RollSheetCommand.self, RollVerifyCommand.self, RollExportCommand.self,
            RollSeedCommand.self, RollHLSCommand.self, RollMigrateCommand.self,
        ],
        defaultSubcommand: RollListCommand.self
    )

    /// Runs `body` with the roll of `store` (the command's `--catalog` and `--media`, else this
    /// process's environment) open, probing files with FFmpeg. Commands that only read open it
    /// `.readOnly`: nothing is written to a SQLite roll, so listing stays cheap.
    static func withRoll<T>(_ access: Roll.Access = .readWrite, store: CatalogOptions? = nil,
                            _ body: (Roll) async throws -> T) async throws -> T {
        if let store { return try await store.withRoll(access, body) }
        return try await CatalogOptions.withRoll(catalog: nil, media: nil, access: access, body)
    }
}
