import Foundation

/// How `feed hls` builds a ladder.
public struct HLSOptions: Sendable, Equatable {
    /// Rung sizes as p-numbers: each is the rung's shorter side (1080 is 1080x1920 for a
    /// portrait clip, 1920x1080 for a landscape one); the longer side follows the picture's
    /// aspect, rounded to even. Rungs larger than the source are dropped, never upscaled.
    public var ladder = [1080, 720, 540, 360]
    /// Target segment length in seconds (Apple: 6).
    public var segmentSeconds = 6.0
    /// Key frame interval in seconds (Apple: 2); segments are cut at key frames.
    public var gopSeconds = 2.0
    public var codec = VideoCodec.h264
    public var preset = "veryfast"
    public var crf = 23
    /// Peak bit rate of each rung in bits/s, in ladder order; nil uses `defaultMaxrate`.
    public var maxrates: [Int]?
    /// Whether the source's audio (if any) goes into every rung.
    public var audio = true
    /// Encoder threads per rung; 0 gives each rung its share of the pixels times the cores
    /// (see ``HLSPackager/threads(for:cores:)``).
    public var threads = 0

    public init() {}

    /// The options by name, for errors (the CLI spells each as `--NAME`).
    public enum Field: String, Sendable {
        case ladder, segment, gop, codec, preset, crf, maxrate, threads
    }

    /// The default cap for a rung of `p` lines: 6 Mb/s at 1080 for H.264, scaled by
    /// (p/1080)^1.5 (≈ 3.3 Mb/s at 720, 2.1 at 540, 1.2 at 360); HEVC gets 60 % of that.
    public func defaultMaxrate(p: Int) -> Int {
        let h264 = 6_000_000 * pow(Double(p) / 1080, 1.5)
        return Int((codec == .hevc ? 0.6 * h264 : h264).rounded(.toNearestOrEven) / 1000) * 1000
    }

    /// Checks every value; the error names the option's field.
    public func validate() throws(HLSError) {
        if ladder.isEmpty || ladder.count > 8 { throw .invalidOption(.ladder, problem: "needs 1 to 8 sizes, not \(ladder.count)") }
        if let bad = ladder.first(where: { $0 < 16 || $0 > 4320 }) { throw .invalidOption(.ladder, problem: "sizes must be 16…4320, not \(bad)") }
        if Set(ladder).count != ladder.count { throw .invalidOption(.ladder, problem: "lists a size twice") }
        if !(1...60).contains(segmentSeconds) { throw .invalidOption(.segment, problem: "must be 1…60 seconds, not \(segmentSeconds)") }
        if !(gopSeconds >= 0.1 && gopSeconds <= segmentSeconds) {
            throw .invalidOption(.gop, problem: "must be 0.1 s or more and at most the segment length (\(segmentSeconds) s), not \(gopSeconds)")
        }
        if !(0...64).contains(threads) { throw .invalidOption(.threads, problem: "must be 0…64, not \(threads)") }
        if !(0...51).contains(crf) { throw .invalidOption(.crf, problem: "must be 0…51, not \(crf)") }
        if !StackOptions.presets.contains(preset) { throw .invalidOption(.preset, problem: "must be one of \(StackOptions.presets.joined(separator: ", ")), not \(preset)") }
        if let maxrates {
            if maxrates.count != ladder.count { throw .invalidOption(.maxrate, problem: "needs one rate per ladder size (\(ladder.count)), not \(maxrates.count)") }
            if let bad = maxrates.first(where: { $0 < 50_000 }) { throw .invalidOption(.maxrate, problem: "rates must be at least 50k, not \(bad)") }
        }
    }
}
