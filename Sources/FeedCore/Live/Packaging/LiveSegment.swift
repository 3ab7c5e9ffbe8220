/// One media segment of a live stream: the parts from one video key frame to the next segment's,
/// served as one file (the concatenation of its parts) at ``uri``.
public struct LiveSegment: Sendable, Equatable {
    /// Its media sequence number, from 0.
    public var sequence: Int
    /// Its start in seconds of media time (0 is the first segment's start): with the wall clock
    /// of that start, its `EXT-X-PROGRAM-DATE-TIME`.
    public var start: Double
    /// Its parts, in order (a segment in progress has those closed so far).
    public var parts: [LivePart]
    /// Whether it follows a timestamp discontinuity (`EXT-X-DISCONTINUITY` before it).
    public var discontinuity: Bool

    /// A segment.
    public init(sequence: Int, start: Double, parts: [LivePart], discontinuity: Bool = false) {
        self.sequence = sequence
        self.start = start
        self.parts = parts
        self.discontinuity = discontinuity
    }

    /// Its duration in seconds: the sum of its parts'.
    public var duration: Double { parts.reduce(0) { $0 + $1.duration } }

    /// Its file name and playlist URI, `seg_{msn}.m4s` (``LLHLSPlaylist/segmentURI(sequence:)``).
    public var uri: String { LLHLSPlaylist.segmentURI(sequence: sequence) }
}
