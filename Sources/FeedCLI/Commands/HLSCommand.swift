import ArgumentParser
import FeedCore
import Foundation

/// `feed hls`: an adaptive HLS ladder from one clip, in one pass.
struct HLSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hls",
        abstract: "Package a clip as an adaptive HLS ladder (fMP4) in one pass.",
        discussion: """
            One decode; every rung is scaled from the decoded picture and encoded on its own \
            encoder at the same time. Key frames are forced every --gop seconds at the same \
            timestamps in every rung (scene-cut key frames off), so segments (cut at the first \
            key frame after each --segment seconds) align exactly across rungs. The audio is \
            encoded once (AAC) into a rendition of its own, DIR/audio/, that every rung names; \
            DIR/manifest.mpd describes the same segments for DASH. Rotation tags are applied: rungs are \
            upright.
            --ladder sizes are p-numbers: each is a rung's shorter side (1080 makes 1080x1920 \
            from a portrait clip and 1920x1080 from a landscape one); the longer side follows the \
            picture's aspect, rounded to even. Sizes above the source are dropped, never \
            upscaled; a source smaller than every size gets one rung at its own size. Each \
            rung's peak bit rate is capped (--maxrate; default 6M at 1080 scaled by \
            (p/1080)^1.5, 60 % of that for HEVC; the VBV buffer is twice the cap).
            Output: DIR/master.m3u8 (EXT-X-INDEPENDENT-SEGMENTS; per variant BANDWIDTH, the peak \
            segment bit rate, and AVERAGE-BANDWIDTH, both measured from the segments written, \
            CODECS, RESOLUTION, FRAME-RATE; largest rung first) and per rung DIR/NAME/index.m3u8 \
            (VOD, EXT-X-MAP), init.mp4 and segment_NNNNN.m4s. Everything is written into a \
            hidden folder beside DIR and renamed at the end: a failure, Ctrl-C or SIGTERM \
            leaves nothing. Progress (percent, pictures, fps, ETA) is drawn on stderr when it is a \
            terminal.
            Exit status: 64 bad option, 65 the input is not readable media, 66 it does not \
            exist, 73 DIR exists (without --force; with it, when DIR holds anything but a \
            ladder, or holds INPUT) or cannot be created, 74 write error, 130 interrupted.

            EXAMPLES:
              feed hls clip.mp4 -o out/
              ffprobe out/master.m3u8
              feed hls clip.mov -o out --ladder 720,360 --json | jq '.variants[].bandwidth'
              feed hls clip.mp4 -o out --codec hevc --maxrate 4M,2M,1.2M,700k --force
            """
    )

    @Argument(help: "The clip to package (a local file).") var input: String
    @Option(name: [.short, .long], help: "Output folder (must not exist, unless --force).") var output: String
    @Flag(help: "Replace the output folder if it holds a ladder (only ladder files; once the new one is complete).") var force = false
    @OptionGroup var ladderOptions: HLSLadderOptions
    @Flag(help: "Print a JSON summary on stdout.") var json = false

    func validate() throws {
        if output.isEmpty { throw ValidationError("-o needs a folder name") }
    }

    func run() throws {
        var packager = HLSPackager(input: input, output: output, options: try ladderOptions.options())
        packager.replace = force
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        let line = StackProgressLine()
        let result: HLSPackager.Result
        do {
            defer { line.finish() }
            result = try packager.run(progress: line.show, isCancelled: trap.isCaught)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try StandardStream.output.write(String(decoding: try encoder.encode(Report(result: result)), as: UTF8.self) + "\n")
        } else {
            let sizes = result.variants.map { "\($0.name) \($0.width)x\($0.height) \($0.averageBandwidth / 1000) kb/s" }.joined(separator: ", ")
            try StandardStream.output.write("\(result.output): \(result.variants.count) \(result.variants.count == 1 ? "rung" : "rungs") (\(sizes)), "
                + "\(String(format: "%.1f", result.duration)) s in \(String(format: "%.1f", result.seconds)) s\n")
        }
    }

    /// `--json`: the packager's result and, as `feed roll hls --json` prints it, `master`.
    private struct Report: Encodable {
        var result: HLSPackager.Result

        private enum CodingKeys: String, CodingKey { case master }

        func encode(to encoder: any Encoder) throws {
            try result.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(result.output + (result.output.hasSuffix("/") ? "" : "/") + HLSMaster.fileName, forKey: .master)
        }
    }
}
