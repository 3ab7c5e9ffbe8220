import ArgumentParser
import FeedCore
import Foundation

/// `feed stack FRONT BACK`: one upright, synced video of a front and a back camera clip.
struct StackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stack",
        abstract: "Stack a front and a back camera clip into one upright, synced MP4.",
        discussion: """
            The back camera goes on top, the front below (--top front swaps). Rotation tags are \
            applied, both pictures are scaled to a common width, and each output frame shows, from \
            each clip, the frame on screen at that instant, so different and variable frame rates \
            stay in sync. Output is H.264 (or HEVC) with AAC audio, written to a hidden temporary \
            file next to -o and renamed at the end. Ctrl-C (SIGINT), SIGTERM or any failure while \
            stacking removes the temporary file and leaves no output (a signal that lands just as \
            the last frame is written removes the finished file too). With --save, a signal before the \
            save starts removes the output too; once started, the save finishes (exit 0): there is \
            never an output without its row.
            Progress (percent, fps, ETA) is drawn on stderr when it is a terminal. The summary goes \
            to stdout: one line, or with --json one object with output, width, height, fps, frames, \
            duration, bytes, seconds (wall time), audio, offset (seconds used), sync_confidence (null \
            without --sync) and roll_id (null without --save).
            --sync audio finds the offset from the clips' sound, as 'feed sync' does, and stacks with \
            it; when no offset fits clearly it stops before stacking (exit 65): give --offset by hand.
            --save adds the output to the camera roll (see 'feed roll') with both sources and the \
            options used, and prints "saved to the roll as #ID" on stderr.
            Exit status: 64 bad option, 65 an input is not readable media (or has no audio for \
            --audio or --sync, or --sync finds no clear match), 66 an input does not exist, 73 the output cannot be created or exists \
            without --force, 74 write error, 130 interrupted by SIGINT or SIGTERM (both 130).

            EXAMPLES:
              feed stack front.mov back.mp4 -o out.mp4
              feed stack front.mov back.mp4 -o out.mp4 --force --save
              feed stack front.mov back.mp4 --layout pip --width 720 --offset 0.4
              feed stack front.mov back.mp4 --sync audio --json | jq .offset
              feed stack front.mov back.mp4 --size 1080x1920 --fit crop --json | jq .bytes
            """
    )

    @Argument(help: "The front camera clip.") var front: String
    @Argument(help: "The back camera clip.") var back: String
    @Option(name: [.short, .long], help: "Output file (default stacked-YYYYMMDD-HHMMSS.mp4).") var output: String?
    @Flag(help: "Replace the output file if it exists.") var force = false
    @Option(help: "vstack, hstack or pip.") var layout = Self.defaults.layout
    @Option(help: "Which clip goes first (top or left): back or front.") var top = Self.defaults.top
    @Option(parsing: .unconditional, help: "Common width of the pictures (hstack: total width); default the narrower clip's.") var width: Int?
    @Option(help: ArgumentHelp("Fixed output size, e.g. 1080x1920.", valueName: "WxH")) var size: StackOptions.Size?
    @Option(help: "With --size: pad (black bars) or crop.") var fit = Self.defaults.fit
    @Option(parsing: .unconditional, help: "Output frame rate (default the higher input rate, at most 60).") var fps: Double?
    // Unconditional: `--offset -1.5` (what `feed sync` prints when the front started first) is
    // a value, not an option.
    @Option(parsing: .unconditional, help: "Seconds the front starts after the back (negative: before; default 0).") var offset: Double?
    @Option(help: ArgumentHelp("Find the offset from the clips' sound (see 'feed sync'); not with --offset.", valueName: "audio"))
    var sync: StackOptions.Sync?
    @OptionGroup(title: "With --sync audio") var search: SyncSearchOptions
    @Option(help: "shortest or longest (the shorter clip holds its last frame).") var until = Self.defaults.until
    @Option(help: "Whose sound to keep: back, front or none (default back, else front).") var audio: StackOptions.Audio?
    @Option(help: "Encoder preset, ultrafast … veryslow, placebo.") var preset = Self.defaults.preset
    @Option(parsing: .unconditional, help: "Constant rate factor 0–51 (lower is better).") var crf = Self.defaults.crf
    @Option(help: "h264 or hevc.") var codec = Self.defaults.codec
    @Flag(help: "Add the output to the camera roll with its sources.") var save = false
    @Flag(help: "Print a JSON summary on stdout.") var json = false

    /// The library's defaults, which the options start from (StackOptions owns them).
    private static let defaults = StackOptions(output: "")

    /// The options for `Stacker`, checked.
    func stackOptions() throws(StackError) -> StackOptions {
        var options = StackOptions(output: output ?? StackOptions.defaultOutputName())
        options.outputIsDefault = output == nil
        options.layout = layout
        options.top = top
        options.width = width
        options.size = size
        options.fit = fit
        options.fps = fps
        options.offset = offset ?? Self.defaults.offset
        options.sync = sync
        do throws(SyncError) { options.syncSearch = try search.options() } catch { throw .sync(error) }
        options.until = until
        options.audio = audio
        options.preset = preset
        options.crf = crf
        options.codec = codec
        options.force = force
        try options.validate()
        return options
    }

    func run() async throws {
        let options = try stackOptions()
        // The encoders need even sizes: an odd one is rounded down, said out loud rather than silently.
        if let size, size.width % 2 != 0 || size.height % 2 != 0 {
            try StandardStream.error.write("feed: note: --size \(size.width)x\(size.height) is encoded as \(size.width & ~1)x\(size.height & ~1) (H.264 and HEVC need even sizes)\n")
        }
        if size == nil, let width, width % 2 != 0 {
            try StandardStream.error.write("feed: note: --width \(width) is encoded as \(width & ~1) (H.264 and HEVC need even sizes)\n")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: options.output, isDirectory: &isFolder), isFolder.boolValue {
            throw CommandFailure(description: "\(options.output): is a folder; give -o a file name", kind: .cannotCreate)
        }
        // Open the roll first: a broken roll should fail before minutes of encoding, not after.
        if save {
            try await RollCommand.withRoll { roll in try await stack(options, into: roll) }
        } else {
            try await stack(options, into: nil)
        }
    }

    /// Stacks, saving to `roll` when given, and prints the summary.
    private func stack(_ options: StackOptions, into roll: Roll?) async throws {
        // One trap from the first frame to the row: a signal never finds the output without its row.
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        let line = StackProgressLine()
        let outcome: StackJob.Outcome
        do {
            defer { line.finish() }
            outcome = try await StackJob(front: front, back: back, options: options, roll: roll)
                .run(progress: line.show, isCancelled: trap.isCaught)
        }
        if let recording = outcome.recording {
            try StandardStream.error.write("saved to the roll as #\(recording.id)\n")
        }
        let summary = StackSummary(result: outcome.result, rollID: outcome.recording?.id)
        if json {
            try StandardStream.output.write(summary.json())
        } else {
            try StandardStream.output.write(summary.line(style: Style(enabled: Terminal.usesColor(.output))))
        }
    }
}

extension StackOptions.Layout: ExpressibleByArgument {}
extension StackOptions.Side: ExpressibleByArgument {}
extension StackOptions.Fit: ExpressibleByArgument {}
extension StackOptions.Until: ExpressibleByArgument {}
extension StackOptions.Audio: ExpressibleByArgument {}
extension StackOptions.Sync: ExpressibleByArgument {}
extension VideoCodec: ExpressibleByArgument {}
extension StackOptions.Size: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}
