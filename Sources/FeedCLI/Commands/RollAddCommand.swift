import ArgumentParser
import FeedCore
import Foundation

/// `feed roll add FILE…`: probe, hash and copy (or move, or link) videos into the roll.
struct RollAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add video files to the roll.",
        discussion: """
            Every file is probed first: if one is not a video, nothing is added (exit 65). A \
            file whose bytes are already in the roll (or earlier on the command line) is skipped \
            unless --allow-duplicate, and the others are still added. Prints the added \
            recordings as `feed roll list` does; when a file of several was skipped, standard \
            error also says, per file, `added as #ID` or `same content as recording N; skipped`. \
            With --json (--ndjson) there is one object per file, in order: an added one is its \
            recording with "outcome": "added", a skipped one {"outcome": "duplicate", \
            "original_path", "duplicate_of"}. SIGINT or SIGTERM stops after the file being added \
            (exit 130); the files added by then stay in the roll. A symbolic link is followed: \
            --link links the file it points to, --move copies that file in and removes the link.

            --title sets the recordings' title. In it, {name} stands for each file's name \
            without its extension: `feed roll add *.mp4 --title "Trip: {name}"`. With several \
            files, a title without {name} would give them all the same title, so it is refused \
            (exit 64).

            Exit status: 0 every file was added; 65 a file is not a video (nothing was added), \
            or a file was skipped as a duplicate (the others were added); 66 a file is missing \
            (nothing was added); 64 an empty file name or a bad option; 74 reading or writing \
            failed (the files added before it stay); 130 interrupted.

            EXAMPLES:
              feed roll add clip.mp4
              feed roll add *.mov --json | jq -r ".[].outcome"
              feed roll add --allow-duplicate take.mp4
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
        try await RollCommand.withRoll(store: store) { roll in
            let options = AddOptions(mode: move ? .move : link ? .link : .copy, allowDuplicate: allowDuplicate, title: title)
            var outcomes: [AddOutcome] = []
            let trap = SignalTrap(signals: [SIGINT, SIGTERM])
            defer { trap.release() }
            do {
                try await roll.addSkippingDuplicates(files, options: options, isCancelled: trap.caught) { outcomes.append($0) }
            } catch {
                // What was settled before the failure stands: say so before the error.
                if !outcomes.isEmpty { try report(outcomes, roll: roll) }
                throw error
            }
            try report(outcomes, roll: roll)
            let added = outcomes.filter { if case .added = $0 { true } else { false } }.count
            let skipped = outcomes.count - added
            if trap.caught() && outcomes.count < files.count {
                let also = skipped == 0 ? "" : "; \(skipped) skipped as already in the roll"
                throw CommandFailure(description: "interrupted: added \(added) of \(files.count) files\(also)", kind: .interrupted)
            }
            guard skipped > 0 else { return }
            if files.count == 1, case let .duplicate(path, existingID)? = outcomes.first {
                throw RollError.duplicate(path: path, existingID: existingID)
            }
            let them = skipped == 1 ? "it" : "them"
            throw CommandFailure(description: added == 0
                ? "nothing was added: all \(files.count) files are already in the roll (use --allow-duplicate to add them anyway)"
                : "added \(added) of \(files.count) files; \(skipped) skipped as already in the roll (use --allow-duplicate to add \(them) anyway)",
                kind: .conflict)
        }
    }

    /// Prints the outcomes: JSON gets one object per file; text gets the table of the added
    /// recordings and, when a file of several was skipped, one line per file on stderr.
    private func report(_ outcomes: [AddOutcome], roll: Roll) throws {
        let added = outcomes.compactMap { if case let .added(recording) = $0 { recording } else { nil } }
        switch output.mode {
        case .json, .ndjson:
            try StandardStream.output.write(RecordingJSON.outcomes(outcomes, lines: output.mode == .ndjson) { roll.address(of: $0) })
        case .text:
            if !added.isEmpty || added.count == outcomes.count { try RollOutput.write(added, roll: roll, mode: .text) }
            guard files.count > 1, added.count < outcomes.count else { return }
            var lines = ""
            for outcome in outcomes {
                switch outcome {
                case let .added(recording): lines += "\(Printable.text(recording.originalPath)): added as #\(recording.id)\n"
                case let .duplicate(path, existingID): lines += "\(Printable.text(path)): same content as recording \(existingID); skipped\n"
                }
            }
            try StandardStream.error.write(lines)
        }
    }
}
