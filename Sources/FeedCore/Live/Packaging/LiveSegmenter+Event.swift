extension LiveSegmenter {
    /// What the segmenter produced from a tag: files to write or delete, in order.
    public enum Event: Sendable, Equatable {
        /// The init segment: write it as ``LLHLSPlaylist/initURI`` before any part. Comes once,
        /// with the first frame.
        case initialization(bytes: [UInt8])
        /// A closed part: write `bytes` (a `moof` + `mdat`) as ``LivePart/uri``. The playlist
        /// lists it from now on, so write it before answering a playlist request.
        case part(LivePart, bytes: [UInt8])
        /// A closed segment: write `bytes` (its parts' bytes, concatenated) as ``LiveSegment/uri``.
        case segment(LiveSegment, bytes: [UInt8])
        /// A segment that left the playlist long enough ago: delete its file and its parts'.
        case removed(LiveSegment)
        /// The timestamps of `track` jumped from `from` to `to` (milliseconds, as the publisher
        /// sent them): the segment in progress was closed, and the next one is marked
        /// `EXT-X-DISCONTINUITY`. Informational.
        case discontinuity(track: LiveSample.Track, from: Int64, to: Int64)
    }
}
