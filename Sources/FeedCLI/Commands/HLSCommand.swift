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
            encoded once (AAC) and muxed into every rung. Rotation tags are applied: rungs are \
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
            leaves nothing.
            Exit status: 64 bad option, 65 the input is not readable media, 66 it does not \
            exist, 73 DIR exists (without --force) or cannot be created, 74 write error, 130 \
            interrupted.

            EXAMPLES:
              feed hls clip.mp4 -o out/
              ffprobe out/master.m3u8
              feed hls clip.mov -o out --ladder 720,360 --segment 4 --json | jq '.variants[].bandwidth'
              feed hls clip.mp4 -o out --codec hevc --maxrate 4M,2M,1.2M,700k --force
            """
    )

    @Argument(help: "The clip to package (a local file).") var input: String
    @Option(name: [.short, .long], help: "Output folder (must not exist, unless --force).") var output: String
    @Flag(help: "Replace the output folder if it exists (only once the new one is complete).") var force = false
    @Option(help: ArgumentHelp("Rung sizes (shorter side), comma-separated.", valueName: "p,p,…")) var ladder = "1080,720,540,360"
    @Option(help: ArgumentHelp("Target segment length.", valueName: "seconds")) var segment = 6.0
    @Option(help: ArgumentHelp("Key frame interval (at most --segment).", valueName: "seconds")) var gop = 2.0
    @Option(help: "h264 or hevc.") var codec: VideoCodec = .h264
    @Option(help: "Encoder preset, ultrafast … veryslow.") var preset = "veryfast"
    @Option(help: "Constant rate factor 0–51 (lower is better).") var crf = 23
    @Option(help: ArgumentHelp("Peak bit rate per rung, in --ladder order (bits/s; k and M suffixes).", valueName: "rate,rate,…"))
    var maxrate: String?
    @Flag(help: "Leave the audio out.") var noAudio = false
    @Flag(help: "Print a JSON summary on stdout.") var json = false

    func options() throws -> HLSOptions {
        var options = HLSOptions()
        options.ladder = try Self.list(ladder, name: "--ladder") { Int($0) }
        options.segmentSeconds = segment
        options.gopSeconds = gop
        options.codec = codec
        options.preset = preset
        options.crf = crf
        options.audio = !noAudio
        if let maxrate { options.maxrates = try Self.list(maxrate, name: "--maxrate", Self.bitRate) }
        try options.validate()
        return options
    }

    /// `text` split at commas, each part parsed by `parse`; a bad part is a usage error naming it.
    static func list<T>(_ text: String, name: String, _ parse: (String) -> T?) throws -> [T] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let item = part.trimmingCharacters(in: .whitespaces)
            guard let value = parse(item) else { throw HLSError.invalidOption(name, problem: "has a bad value: \"\(item)\"") }
            return value
        }
    }

    /// `2500000`, `2500k`, `2.5M` → bits per second.
    static func bitRate(_ text: String) -> Int? {
        let scale: Double
        var number = Substring(text)
        switch text.last {
        case "k", "K": scale = 1e3; number = number.dropLast()
        case "m", "M": scale = 1e6; number = number.dropLast()
        default: scale = 1
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale < Double(Int32.max) else { return nil }
        return Int((value * scale).rounded())
    }

    func run() throws {
        var packager = HLSPackager(input: input, output: output, options: try options())
        packager.replace = force
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        let result = try packager.run(isCancelled: trap.isCaught)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try StandardStream.output.write(String(decoding: try encoder.encode(result), as: UTF8.self) + "\n")
        } else {
            let sizes = result.variants.map { "\($0.name) \($0.width)x\($0.height) \($0.averageBandwidth / 1000) kb/s" }.joined(separator: ", ")
            try StandardStream.output.write("\(result.output): \(result.variants.count) rungs (\(sizes)), "
                + "\(String(format: "%.1f", result.duration)) s in \(String(format: "%.1f", result.seconds)) s\n")
        }
    }
}
