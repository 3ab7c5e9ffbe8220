/// How ``AudioSync`` searches for the offset between two recordings.
public struct SyncOptions: Sendable, Equatable {
    /// The options a caller sets, by the names a JSON request uses.
    public enum Field: String, Sendable, CaseIterable {
        case maxOffset = "max-offset", minConfidence = "min-confidence"
    }

    /// The search covers offsets from `-maxOffset` to `maxOffset` seconds.
    public var maxOffset: Double = 10
    /// Matches whose ``SyncResult/confidence`` is below this are refused.
    public var minConfidence: Double = SyncOptions.defaultMinConfidence

    /// The confidence below which a match is refused by default: the best match at least 2.5
    /// times as strong as any other more than ``runnerUpDistance`` away.
    public static let defaultMinConfidence = 2.5
    /// The audio is decoded to mono at this rate (Hz) for the search.
    public static let sampleRate = 8000
    /// The band compared, in Hz: below it are hum and handling noise, above it little of a
    /// room's sound survives two phones' microphones and codecs.
    public static let band = 100.0...3800.0
    /// The runner-up is the strongest match at least this far (seconds) from the best: nearer
    /// ones are the same match smeared by echoes and clock drift.
    public static let runnerUpDistance = 0.1
    /// Seconds of each recording compared: the front's first `analysedSeconds`, the back's first
    /// `analysedSeconds + maxOffset` (both fit one transform, ``maxOffset`` being at most 60).
    /// Longer recordings are lined up by their start.
    public static let analysedSeconds = 90.0
    /// Offsets at which the recordings would share less than this (seconds) are not considered.
    public static let minimumOverlap = 1.0

    public init() {}

    /// Throws `.invalidOption` for values out of range.
    public func validate() throws(SyncError) {
        // The confidence compares the best offset with others more than runnerUpDistance away.
        if !(maxOffset >= 2 * Self.runnerUpDistance && maxOffset <= 60) {
            throw .invalidOption(.maxOffset, problem: "must be 0.2…60 seconds, not \(maxOffset)")
        }
        if !(minConfidence >= 1 && minConfidence <= 1000) {
            throw .invalidOption(.minConfidence, problem: "must be 1…1000, not \(minConfidence)")
        }
    }
}
