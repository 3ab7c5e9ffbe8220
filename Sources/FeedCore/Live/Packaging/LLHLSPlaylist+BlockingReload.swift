extension LLHLSPlaylist {
    /// What to do with a blocking playlist request (`_HLS_msn=M[&_HLS_part=P]`,
    /// draft-pantos-hls-rfc8216bis §6.2.5.2).
    public enum BlockingReload: Sendable, Equatable {
        /// This playlist satisfies it: answer now.
        case ready
        /// Hold the request and ask again when the playlist changes (a part or segment closed);
        /// when the server's hold runs out first, answer 503, never the same playlist again.
        case hold
        /// More than two segments ahead of the playlist, or a part too far ahead of the last
        /// one: answer 400 at once.
        case tooFarAhead
    }

    /// What to do with a request for segment `msn` (and its part `part`, when given).
    ///
    /// Without a part it is ready once segment `msn` (or a later one) is complete; with one,
    /// once part `part` of segment `msn`, or any later part, is listed. It is too far ahead when
    /// `msn` is more than two past the last segment listed (the one in progress counts once it
    /// has a part), or when `part` is more than the Advance Part Limit past the last part of the
    /// same segment: three part targets' worth, 3 / `PART-TARGET` parts. An ended stream is
    /// always ready: nothing more will come. (`_HLS_part` without `_HLS_msn` is a 400 the
    /// caller answers before asking.)
    public func blockingReload(msn: Int, part: Int? = nil) -> BlockingReload {
        guard let current else { return .ready }
        let lastSequence = current.parts.isEmpty ? current.sequence - 1 : current.sequence
        // Numbers from a query string may be anything: compared as Double, nothing overflows.
        if Double(msn) > Double(lastSequence) + 2 { return .tooFarAhead }
        guard let part else {
            return (segments.last?.sequence ?? -1) >= msn ? .ready : .hold
        }
        // The last listed part, as (segment, index).
        let last: (sequence: Int, index: Int)?
        if let index = current.parts.indices.last {
            last = (current.sequence, index)
        } else if let segment = segments.last, let index = segment.parts.indices.last {
            last = (segment.sequence, index)
        } else {
            last = nil
        }
        guard let last else { return .hold }
        if msn == last.sequence, Double(part) - Double(last.index) > 3 / min(partTarget, 1) { return .tooFarAhead }
        return (msn, part) <= (last.sequence, last.index) ? .ready : .hold
    }
}
