import ArgumentParser
import FeedCore
import Foundation

/// The ladder options `feed hls` and `feed roll hls` share.
struct HLSLadderOptions: ParsableArguments {
    /// The library's defaults, which the options start from (HLSOptions owns them).
    private static let defaults = HLSOptions()

    @Option(help: ArgumentHelp("Rung sizes (shorter side), comma-separated.", valueName: "p,p,…")) var ladder = Self.defaults.ladder.map(String.init).joined(separator: ",")
    @Option(parsing: .unconditional, help: ArgumentHelp("Target segment length.", valueName: "seconds")) var segment = Self.defaults.segmentSeconds
    @Option(parsing: .unconditional, help: ArgumentHelp("Key frame interval (at most --segment).", valueName: "seconds")) var gop = Self.defaults.gopSeconds
    @Option(help: "h264 or hevc.") var codec = Self.defaults.codec
    @Option(help: "Encoder preset, ultrafast … veryslow, placebo.") var preset = Self.defaults.preset
    @Option(parsing: .unconditional, help: "Constant rate factor 0–51 (lower is better).") var crf = Self.defaults.crf
    @Option(help: ArgumentHelp("Peak bit rate per rung, in --ladder order (bits/s; k and M suffixes).", valueName: "rate,rate,…"))
    var maxrate: String?
    @Flag(help: "Leave the audio out.") var noAudio = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Encoder threads per rung (0: each rung's share of the pixels times the cores, rounded up).", valueName: "n"))
    var threads = Self.defaults.threads

    /// The options as FeedCore takes them; a bad value is a usage error naming its option.
    func options() throws -> HLSOptions {
        var options = HLSOptions()
        options.ladder = try Self.list(ladder, field: .ladder) { Int($0) }
        options.segmentSeconds = segment
        options.gopSeconds = gop
        options.codec = codec
        options.preset = preset
        options.crf = crf
        options.audio = !noAudio
        options.threads = threads
        if let maxrate { options.maxrates = try Self.list(maxrate, field: .maxrate, Self.bitRate) }
        try options.validate()
        return options
    }

    /// `text` split at commas, each part parsed by `parse`; a bad part is a usage error naming it.
    static func list<T>(_ text: String, field: HLSOptions.Field, _ parse: (String) -> T?) throws -> [T] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let item = part.trimmingCharacters(in: .whitespaces)
            guard let value = parse(item) else { throw HLSError.invalidOption(field, problem: "has a bad value: \"\(item)\"") }
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
}
