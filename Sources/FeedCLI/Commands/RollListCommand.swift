import ArgumentParser
import FeedCore

/// `feed roll list` (also plain `feed roll`): recordings newest first.
struct RollListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recordings, newest first.",
        discussion: """
            The table shows id, when it was added, duration, size, file size and the title or \
            file name. --json / --ndjson give id, file (absolute path), file_name, \
            original_path, created_at (ISO 8601 UTC), duration (s), width, height, fps, \
            video_codec, has_audio, bytes, sha256, and sources, stack_options, title when set.

            EXAMPLES:
              feed roll list
              feed roll list --limit 0 --json | jq length
              feed roll list --ndjson | head -3
            """
    )

    @OptionGroup var store: CatalogOptions

    @Option(parsing: .unconditional, help: "At most this many recordings (0 = all).")
    var limit = 50

    @Option(parsing: .unconditional, help: "Skip this many of the newest first.")
    var offset = 0

    @Flag(help: "Every recording (same as --limit 0).")
    var all = false

    @OptionGroup var output: OutputFormat

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more") }
    }

    func run() async throws {
        try await RollCommand.withRoll(.readOnly, store: store) { roll in
            let recordings = try await roll.recordings(limit: all || limit == 0 ? nil : limit, offset: offset)
            try RollOutput.write(recordings, roll: roll, mode: output.mode)
        }
    }
}
