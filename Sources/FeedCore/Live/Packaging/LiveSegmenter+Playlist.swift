import Foundation

/// The segmenter's state as an LL-HLS playlist.
extension LiveSegmenter {
    /// The playlist of the moment: the window's segments, the parts of the segment in progress,
    /// and the next part's preload hint. `startingAt` is the wall clock of media time 0 (when
    /// the first frame came) for `EXT-X-PROGRAM-DATE-TIME`.
    ///
    /// `EXT-X-TARGETDURATION` is the segment target rounded up: segments are cut so that none
    /// rounds to more (see ``LiveSegmenter``). Only a single frame longer than that (a gap in the
    /// publisher's timestamps short of a discontinuity) can make a longer segment, and then the
    /// target duration is that segment's, rounded. Before the first part closes the playlist
    /// lists nothing but the preload hint: hold requests until then.
    public func playlist(startingAt start: Date) -> LLHLSPlaylist {
        let target = max(targetDuration, Int(longestSegment.rounded()))
        let current = isFinished ? nil : LiveSegment(sequence: sequence, start: segmentStartSeconds, parts: segmentParts,
                                                     discontinuity: segmentDiscontinuity || (segmentParts.isEmpty && discontinuityPending))
        return LLHLSPlaylist(partTarget: options.partTarget, targetDuration: target, segments: segments, current: current,
                             discontinuitySequence: discontinuitySequence, programDateTime: start,
                             independentSegments: independentSegments)
    }

    /// The segment in progress's start in seconds.
    var segmentStartSeconds: Double {
        guard let writer else { return 0 }
        let start = segmentParts.isEmpty && partSamples.isEmpty ? leadEnd : segmentStart
        return Double(start) / Double(writer.timescale(lead))
    }
}
