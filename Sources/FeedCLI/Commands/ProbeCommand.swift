import ArgumentParser
import FeedCore

/// `feed probe FILE…` / `feed probe --id ID`: what each media file holds, as a table or JSON.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show container, codecs, sizes, rotation, frame rate and audio of media files.",
        discussion: """
            Local files only unless --allow-network (then http(s) URLs too); playlists, concat \
            scripts and image sequences are refused. The table's DISPLAY size is the picture \
            once turned upright by ROTATION (degrees clockwise). FPS is the frame rate; when frame \
            durations vary it shows the nominal rate (the one most frames follow), "vfr" and \
            the average: "30.00 vfr avg 27.02". The table is never cut when piped; in a \
            terminal no column is cut (a long path makes a wide line).
            --id probes the clip of a feed video instead of a file (repeat it for several): \
            its video URL or path, a relative path taken from the feed file's folder. The FILE \
            column and "path" then show where the clip was found.
            --json prints an array of objects, one per file, every key always present: path, \
            container, duration (seconds), video_codec, coded_width, coded_height, \
            display_width, display_height, rotation, fps (the average), nominal_fps, \
            variable_frame_rate, audio_codec, \
            audio_sample_rate, audio_channels (null without audio), bytes, moov ("start" when an \
            MP4's index comes before its media, "end" after it, null for another container).
            When some files fail, the others are still printed, each failure gets one line on \
            stderr, and the exit status is the first failure's.
            Exit status: 66 a file does not exist, 65 a file is not readable media, an id is \
            not in the feed, or a URL is refused.

            EXAMPLES:
              feed probe clip.mp4
              feed probe front.mov back.mp4 --json
              feed probe *.mp4 --json | jq '.[] | select(.rotation != 0) | .path'
              feed probe --feed clips/feed.json --id 100 --id 101
              feed probe --id 1450 --allow-network
            """
    )

    @Argument(help: ArgumentHelp("Media files to probe.", valueName: "file"))
    var files: [String] = []

    @Option(name: .customLong("id"), help: ArgumentHelp("Probe the clip of the feed video with this id (repeatable).", valueName: "id"))
    var ids: [String] = []

    @OptionGroup var source: FeedSource

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        if source.feed != nil && ids.isEmpty { throw ValidationError("--feed needs --id: which of its videos to probe") }
        if files.isEmpty && ids.isEmpty { throw ValidationError("give at least one file, or --id ID for a feed video") }
    }

    func run() async throws {
        var probed: [(path: String, info: MediaInfo)] = []
        var shown: [String] = []
        var failures: [any FeedFailure] = []
        for target in try await targets() {
            switch target {
            case .failed(let failure):
                failures.append(failure)
            case .location(let location, let display):
                do throws(MediaError) {
                    if let refusal = location.refusal(allowNetwork: source.allowNetwork) { throw refusal }
                    let path = location.source
                    probed.append((path, try MediaProbe.probe(path: path, allowNetwork: source.allowNetwork)))
                    shown.append(display)
                } catch {
                    failures.append(error)
                }
            }
        }
        if probed.isEmpty, failures.count == 1 { throw failures[0] }
        for failure in failures { try StandardStream.error.write("feed: \(Printable.text(FailureMessage.text(failure)))\n") }
        if json {
            try StandardStream.output.write(MediaInfoJSON.array(probed))
        } else if !probed.isEmpty {
            let style = Style(enabled: Terminal.usesColor(.output))
            try StandardStream.output.write(MediaInfoTable.table(zip(shown, probed).map { ($0, $1.info) }).render(width: Terminal.width(), style: style))
        }
        if let first = failures.first {
            throw CommandFailure(description: "\(failures.count) of \(files.count + ids.count) files could not be probed",
                                 kind: first.kind)
        }
    }

    /// What to probe: a path or URL and how the table shows it, or why an `--id` has none.
    private enum Target {
        case location(MediaLocation, shown: String)
        case failed(any FeedFailure)
    }

    /// The files, then the clips of the `--id` videos (the feed is read only for those).
    private func targets() async throws -> [Target] {
        var targets = files.map { Target.location(MediaLocation(argument: $0), shown: $0) }
        guard !ids.isEmpty else { return targets }
        let feed = try await source.load()
        try? ProblemLine.warn(feed.warnings)
        for (id, found) in zip(ids, feed.videos(ids: ids)) {
            guard let video = found else {
                targets.append(.failed(FeedError.unknownID(FeedID(parsing: id), source: feed.source)))
                continue
            }
            guard let reference = video.videoReference else {
                targets.append(.failed(CommandFailure(description: "\(feed.source): video \(id) has no video to probe", kind: .invalidData)))
                continue
            }
            let location = feed.location(of: reference)
            targets.append(.location(location, shown: ShownPath.relative(location.source)))
        }
        return targets
    }
}
