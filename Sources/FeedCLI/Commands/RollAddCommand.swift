import ArgumentParser
import FeedCore
import Foundation

/// `feed roll add FILE…`: probe, hash and copy (or move, or link) videos into the roll.
struct RollAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add video files to the roll.",
        discussion: """
            Every file is probed first: if one is not a video, nothing is added (exit 65). \
            The same bytes twice are refused (exit 65) unless --allow-duplicate. Prints the \
            added recordings as `feed roll list` does. SIGINT or SIGTERM stops after the file \
            being added (exit 130); the files added by then stay in the roll. A missing file exits \
            66, an empty file name 64. A symbolic link is followed: --link links the file it \
            points to, --move copies that file in and removes the link.

            --title sets the recordings' title. In it, {name} stands for each file's name \
            without its extension: `feed roll add *.mp4 --title "Trip: {name}"`. With several \
            files, a title without {name} would give them all the same title, so it is refused \
            (exit 64).
            """
    )

    @OptionGroup var store: CatalogOptions

    @Argument(help: ArgumentHelp("The video files.", valueName: "file"))
    var files: [String]

    @Flag(help: "Move the files in instead of copying them.")
    var move = false

    @Flag(help: "Hard-link the files in (symbolic link across file systems) instead of copying.")
    var link = false

    @Flag(help: "Add a file even when the same content is already in the roll.")
    var allowDuplicate = false

    @Option(help: ArgumentHelp("A title for the recordings; {name} stands for each file's name without its extension.",
                               valueName: "title"))
    var title: String?

    @OptionGroup var output: OutputFormat

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file") }
        if move && link { throw ValidationError("--move and --link cannot be combined") }
        if let title, files.count > 1, !TitleTemplate.isPerFile(title) {
            throw ValidationError("--title would give all \(files.count) files the same title: add {name} for each file's name (--title \"\(title): {name}\"), or add them one at a time")
        }
    }

    func run() async throws {
        let roll = try await RollCommand.open(store: store)
        let options = AddOptions(mode: move ? .move : link ? .link : .copy, allowDuplicate: allowDuplicate, title: title)
        var added: [Recording] = []
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        do {
            try await roll.add(files, options: options, added: { added.append($0) }, isCancelled: trap.caught)
        } catch {
            // What landed before the failure is in the roll: say so before the error.
            if !added.isEmpty { try RollOutput.write(added, roll: roll, mode: output.mode) }
            throw error
        }
        try RollOutput.write(added, roll: roll, mode: output.mode)
        if trap.caught() && added.count < files.count {
            throw CommandFailure(description: "interrupted: added \(added.count) of \(files.count) files", kind: .interrupted)
        }
    }
}
