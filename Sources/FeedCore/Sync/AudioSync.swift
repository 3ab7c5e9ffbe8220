/// Lines up two recordings of the same scene by their sound: the offset `feed stack --offset`
/// needs, found by cross-correlating the two audio tracks.
///
/// Both tracks are decoded to mono at ``SyncOptions/sampleRate`` Hz, and each 10 s block of the
/// front is compared with the back by GCC-PHAT (``CrossCorrelation``, ``SyncBlock``) over every
/// offset within ``SyncOptions/maxOffset``; the blocks' scores are summed (``SyncMatch``). The
/// answer is refused when the best offset is not clearly better than the runner-up: when the
/// clips share no sound, or share only a sound that repeats, no offset is better than a wrong one.
public enum AudioSync {
    /// The offset of `front` against `back`: seconds the front starts after the back.
    /// - Throws: ``SyncError/noMatch(front:back:confidence:searched:)`` when no offset fits clearly;
    ///   ``SyncError/noAudio(path:)``, ``SyncError/silent(path:)``, ``SyncError/media(_:)``,
    ///   ``SyncError/invalidOption(_:problem:)``.
    public static func offset(front: String, back: String, options: SyncOptions = SyncOptions()) throws(SyncError) -> SyncResult {
        try options.validate()
        let rate = SyncOptions.sampleRate
        let frontSignal = try SyncSignal.load(path: front, seconds: SyncOptions.analysedSeconds)
        let backSignal = try SyncSignal.load(path: back, seconds: SyncOptions.analysedSeconds + options.maxOffset)
        let maxLag = Int((options.maxOffset * Double(rate)).rounded())
        let searchedFor = -options.maxOffset...options.maxOffset
        guard let match = try SyncMatch(front: frontSignal.samples, back: backSignal.samples, maxLag: maxLag, rate: rate, path: front) else {
            throw .noMatch(front: front, back: back, confidence: 1, searched: searchedFor)
        }
        let searched = Double(match.searched.lowerBound) / Double(rate)...Double(match.searched.upperBound) / Double(rate)
        let confidence = (match.confidence * 100).rounded() / 100
        if confidence < options.minConfidence { throw .noMatch(front: front, back: back, confidence: confidence, searched: searched) }
        let offset = (match.lag / Double(rate) * 100_000).rounded() / 100_000     // 10 µs: a twelfth of a sample
        return SyncResult(offset: offset, confidence: confidence, searched: searched)
    }
}
