/// The offset ``AudioSync`` found between two recordings.
public struct SyncResult: Sendable, Equatable, Codable {
    /// Seconds the front starts after the back (negative: before), as `StackOptions.offset`.
    public var offset: Double
    /// How much stronger the best match is than the runner-up (the strongest match more than
    /// 0.1 s away): 1 means two offsets fit equally well; a clear match is well above 2.5.
    public var confidence: Double
    /// The offsets searched, in seconds (narrower than the maximum offset when the clips are
    /// short); encoded as `[min, max]`.
    public var searched: ClosedRange<Double>
}
