/// Lines up two recordings of the same scene by their sound: the offset `feed stack --offset`
/// needs, found by cross-correlating the two audio tracks.
///
/// Both tracks are decoded to mono at ``SyncOptions/sampleRate`` Hz and compared by GCC-PHAT
/// (``CrossCorrelation``) over every offset within ``SyncOptions/maxOffset``. The answer is
/// refused when the best match is not clearly better than the runner-up (``SyncMatch``): when the
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
        let correlation = try CrossCorrelation(front: frontSignal.samples, back: backSignal.samples, maxLag: maxLag, path: front)
        let searchedFor = [-options.maxOffset, options.maxOffset]
        guard let match = SyncMatch(correlation, frontCount: frontSignal.samples.count, backCount: backSignal.samples.count, rate: rate) else {
            throw .noMatch(front: front, back: back, confidence: 1, searched: searchedFor)
        }
        let searched = [Double(match.searched.lowerBound) / Double(rate), Double(match.searched.upperBound) / Double(rate)]
        let confidence = (match.confidence * 100).rounded() / 100
        if confidence < options.minConfidence { throw .noMatch(front: front, back: back, confidence: confidence, searched: searched) }
        let offset = (match.lag / Double(rate) * 10000).rounded() / 10000
        return SyncResult(offset: offset, confidence: confidence, searched: searched)
    }
}
