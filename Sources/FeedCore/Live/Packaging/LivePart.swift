/// One partial segment of a live stream: a `moof` + `mdat` the segmenter closed, listed in the
/// LL-HLS playlist as `EXT-X-PART` and served as ``uri``.
public struct LivePart: Sendable, Equatable {
    /// The media sequence number of its segment.
    public var sequence: Int
    /// Its place in its segment, from 0.
    public var index: Int
    /// Its duration in seconds, measured on the lead track (video when there is video).
    public var duration: Double
    /// Whether it starts with a video key frame (every audio-only part does): `INDEPENDENT=YES`.
    public var independent: Bool

    /// A part.
    public init(sequence: Int, index: Int, duration: Double, independent: Bool) {
        self.sequence = sequence
        self.index = index
        self.duration = duration
        self.independent = independent
    }

    /// Its file name and playlist URI, `part_{msn}_{index}.m4s` (``LLHLSPlaylist/partURI(sequence:index:)``).
    public var uri: String { LLHLSPlaylist.partURI(sequence: sequence, index: index) }
}
