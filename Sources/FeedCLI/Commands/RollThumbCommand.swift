import ArgumentParser
import FeedCore

/// `feed roll thumb ID`: a JPEG poster frame, cached in the roll.
struct RollThumbCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb",
        abstract: "Make a JPEG poster frame of a recording.",
        discussion: """
            The frame is taken at --at seconds (default 10 % of the duration) and cached under \
            recordings/.thumbs/. Prints the JPEG's path: the cached one, or -o's (an existing \
            -o is refused with 73 unless --force).

            EXAMPLES:
              feed roll thumb 3 -o poster.jpg
              feed roll thumb 3 -o poster.jpg --at 2.5
            """
    )

    @OptionGroup var store: CatalogOptions

    @Argument(help: ArgumentHelp("The recording's id.", valueName: "id"))
    var id: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Also write the JPEG here.", valueName: "file.jpg"))
    var output: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Time of the frame in seconds.", valueName: "seconds"))
    var at: Double?

    @Flag(help: "Replace -o's file if it exists.")
    var force = false

    func validate() throws {
        if let at, !(at >= 0) { throw ValidationError("--at must be 0 or more seconds") }
    }

    func run() async throws {
        // An existing -o is refused (73) unless --force, before any work.
        if let output { try OutputTarget(path: output, force: force).check() }
        try await RollCommand.withRoll(.readOnly, store: store) { roll in
            let recording = try await roll.recording(id: id)
            let cached = try roll.thumbnail(of: recording, at: at)
            var path = cached.path
            if let output {
                path = try roll.copyThumbnail(cached, to: output).path
            }
            try StandardStream.output.write(path + "\n")
        }
    }
}
