import ArgumentParser
import FeedCore

/// `feed probe FILE…`: what each media file holds, as a table or JSON.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show container, codecs, sizes, rotation, frame rate and audio of media files.",
        discussion: """
            Local files only; playlists, concat scripts and image sequences are refused. The \
            table's DISPLAY size is the picture once turned upright by ROTATION (degrees \
            clockwise); FPS says "vfr" when frame durations vary.
            --json prints an array of objects, one per file, every key always present: path, \
            container, duration (seconds), video_codec, coded_width, coded_height, \
            display_width, display_height, rotation, fps, variable_frame_rate, audio_codec, \
            audio_sample_rate, audio_channels (null without audio), bytes.
            When some files fail, the others are still printed, each failure gets one line on \
            stderr, and the exit status is the first failure's.
            Exit status: 66 a file does not exist, 65 a file is not readable media.

            EXAMPLES:
              feed probe clip.mp4
              feed probe front.mov back.mp4 --json
              feed probe *.mp4 --json | jq '.[] | select(.rotation != 0) | .path'
            """
    )

    @Argument(help: ArgumentHelp("Media files to probe.", valueName: "file"))
    var files: [String]

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file") }
    }

    func run() throws {
        var probed: [(path: String, info: MediaInfo)] = []
        var failures: [MediaError] = []
        for file in files {
            do { probed.append((file, try MediaProbe.probe(path: file))) } catch { failures.append(error) }
        }
        if probed.isEmpty, failures.count == 1 { throw failures[0] }
        for failure in failures { try StandardStream.error.write("feed: \(Printable.text(FailureMessage.text(failure)))\n") }
        if json {
            try StandardStream.output.write(MediaInfoJSON.array(probed))
        } else if !probed.isEmpty {
            let style = Style(enabled: Terminal.usesColor(.output))
            try StandardStream.output.write(MediaInfoTable.table(probed).render(width: Terminal.width(), style: style))
        }
        if let first = failures.first {
            throw CommandFailure(description: "\(failures.count) of \(files.count) files could not be probed",
                                 kind: first.kind)
        }
    }
}
