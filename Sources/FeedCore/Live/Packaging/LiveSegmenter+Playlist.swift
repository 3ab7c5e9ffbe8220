import Foundation

/// The segmenter's state as an LL-HLS playlist.
extension LiveSegmenter {
    /// The playlist of the moment: the window's segments, the parts of the segment in progress,
    /// and the next part's preload hint. `startingAt` is the wall clock of media time 0 (when
    /// the first frame came) for `EXT-X-PROGRAM-DATE-TIME`.
    ///
    /// `EXT-X-TARGETDURATION` is the segment target rounded up, or the longest segment so far
    /// rounded, when that is more: it grows (where RFC 8216 says it must not change) only when
    /// the publisher's key frames are further apart than the segment target. Before the first
    /// part closes the playlist lists nothing but the preload hint: hold requests until then.
    public func playlist(startingAt start: Date) -> LLHLSPlaylist {
        let target = max(Int(options.segmentTarget.rounded(.up)), Int(longestSegment.rounded()), 1)
        let current = isFinished ? nil : LiveSegment(sequence: sequence, start: segmentStartSeconds, parts: segmentParts,
                                                     discontinuity: segmentDiscontinuity || (segmentParts.isEmpty && discontinuityPending))
        return LLHLSPlaylist(partTarget: options.partTarget, targetDuration: target, segments: segments, current: current,
                             discontinuitySequence: discontinuitySequence, programDateTime: start)
    }

    /// The segment in progress's start in seconds.
    var segmentStartSeconds: Double {
        guard let writer else { return 0 }
        let start = segmentParts.isEmpty && partSamples.isEmpty ? leadEnd : segmentStart
        return Double(start) / Double(writer.timescale(lead))
    }
}
