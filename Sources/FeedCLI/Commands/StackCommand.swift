import ArgumentParser
import Dispatch
import FeedCore
import Foundation
import Synchronization

/// `feed stack FRONT BACK`: one upright, synced video of a front and a back camera clip.
struct StackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stack",
        abstract: "Stack a front and a back camera clip into one upright, synced MP4.",
        discussion: """
            The back camera goes on top, the front below (--top front swaps). Rotation tags are \
            applied, both pictures are scaled to a common width, and each output frame shows, from \
            each clip, the frame on screen at that instant, so different and variable frame rates \
            stay in sync. Output is H.264 (or HEVC) with AAC audio, written to a temporary file \
            next to -o and renamed at the end; Ctrl-C removes it.
            --json prints: output, width, height, fps, frames, duration, bytes, seconds, audio.
            Exit status: 64 bad option, 65 unreadable input, 66 missing input, 73 cannot create output \
            (or it exists without --force), 74 write error, 130 interrupted.

            EXAMPLES:
              feed stack front.mov back.mp4 -o out.mp4
              feed stack front.mov back.mp4 --layout pip --width 720 --offset 0.4
              feed stack front.mov back.mp4 --size 1080x1920 --fit crop --fps 30 --json
            """
    )

    @Argument(help: "The front camera clip.") var front: String
    @Argument(help: "The back camera clip.") var back: String
    @Option(name: [.short, .long], help: "Output file (default stacked-YYYYMMDD-HHMMSS.mp4).") var output: String?
    @Flag(help: "Replace the output file if it exists.") var force = false
    @Option(help: "vstack, hstack or pip.") var layout: StackOptions.Layout = .vstack
    @Option(help: "Which clip goes first (top or left): back or front.") var top: StackOptions.Side = .back
    @Option(help: "Common width of the pictures (hstack: total width); default the narrower clip's.") var width: Int?
    @Option(help: "Fixed output size WxH, e.g. 1080x1920.") var size: String?
    @Option(help: "With --size: pad (black bars) or crop.") var fit: StackOptions.Fit = .pad
    @Option(help: "Output frame rate (default the higher input rate, at most 60).") var fps: Double?
    @Option(help: "Seconds the front starts after the back (negative: before).") var offset: Double = 0
    @Option(help: "shortest or longest (the shorter clip holds its last frame).") var until: StackOptions.Until = .shortest
    @Option(help: "Whose sound to keep: back, front or none (default back, else front).") var audio: StackOptions.Audio?
    @Option(help: "Encoder preset, ultrafast … veryslow.") var preset = "veryfast"
    @Option(help: "Constant rate factor 0–51 (lower is better).") var crf = 23
    @Option(help: "h264 or hevc.") var codec: VideoCodec = .h264
    @Flag(help: "Print a JSON summary on stdout.") var json = false

    func run() throws {
        var options = StackOptions(output: output ?? StackOptions.defaultOutputName())
        options.layout = layout
        options.top = top
        options.width = width
        if let size {
            guard let parsed = StackOptions.Size(parsing: size) else { throw ValidationError("--size must look like 1080x1920, not \(size)") }
            options.size = parsed
        }
        options.fit = fit
        options.fps = fps
        options.offset = offset
        options.until = until
        options.audio = audio
        options.preset = preset
        options.crf = crf
        options.codec = codec
        options.force = force

        let cancelled = CancelFlag()
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { cancelled.set() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        let meter = ProgressMeter(enabled: isatty(STDERR_FILENO) == 1)
        let result: StackResult
        do {
            result = try Stacker(front: front, back: back, options: options)
                .run(progress: meter.show, isCancelled: cancelled.isSet)
            meter.finish()
        } catch {
            meter.finish()
            throw error
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            FileHandle.standardOutput.write(try encoder.encode(result) + Data("\n".utf8))
        } else {
            let line = "\(result.output)  \(result.width)x\(result.height)  "
                + String(format: "%.3g fps  %d frames  %.2f s  %lld bytes  (%.1f s)\n",
                         result.fps, result.frames, result.duration, result.bytes, result.seconds)
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }
}

extension StackOptions.Layout: ExpressibleByArgument {}
extension StackOptions.Side: ExpressibleByArgument {}
extension StackOptions.Fit: ExpressibleByArgument {}
extension StackOptions.Until: ExpressibleByArgument {}
extension StackOptions.Audio: ExpressibleByArgument {}
extension VideoCodec: ExpressibleByArgument {}

/// Set from the signal handler's queue, read by the stacker before every frame.
private final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    func isSet() -> Bool { value.load(ordering: .relaxed) }
}

/// Percent, fps and ETA on one rewritten stderr line, only when stderr is a terminal.
private final class ProgressMeter {
    let enabled: Bool
    private var shown = false
    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: StackProgress) {
        guard enabled else { return }
        let eta = progress.eta.map { String(format: "%d:%02d", Int($0) / 60, Int($0) % 60) } ?? "-:--"
        let line = String(format: "\r%3.0f%%  %d/%d frames  %.1f fps  ETA ", progress.fraction * 100, progress.frames,
                          progress.expectedFrames, progress.fps) + eta + " "
        FileHandle.standardError.write(Data(line.utf8))
        shown = true
    }

    func finish() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)); shown = false }
    }
}
