/// A recording's sound as the search compares it: mono at ``SyncOptions/sampleRate`` Hz on the
/// file's own timeline (sample 0 is time 0, silence before the first decoded sample), so a lag
/// between two signals is an offset in the sense of `StackOptions.offset`.
struct SyncSignal {
    var samples: [Float]

    /// Decodes the first `seconds` of `path`'s audio.
    /// - Throws: ``SyncError/noAudio(path:)`` without an audio track, ``SyncError/silent(path:)``
    ///   when it is silent or shorter than ``SyncOptions/minimumOverlap``, ``SyncError/media(_:)``.
    static func load(path: String, seconds: Double) throws(SyncError) -> SyncSignal {
        let rate = SyncOptions.sampleRate
        let limit = Int(seconds * Double(rate))
        let reader: MediaReader
        do { reader = try MediaReader(path: path, video: false, audio: true) } catch { throw .media(error) }
        guard reader.info.audioSampleRate != nil else { throw .noAudio(path: path) }
        var samples: [Float] = []
        samples.reserveCapacity(min(limit, 1 << 22))
        var first = true
        while samples.count < limit {
            let chunk: AudioChunk?
            do { chunk = try reader.readAudio(sampleRate: rate, channels: 1, maxFrames: 8192) } catch { throw .media(error) }
            guard let chunk else { break }
            var values = chunk.samples[...]
            if first {                                      // place the first sample at its time
                first = false
                let start = Int((chunk.time * Double(rate)).rounded())
                if start > 0 { samples.append(contentsOf: repeatElement(0, count: min(start, limit))) }
                if start < 0 { values = values.dropFirst(min(-start, values.count)) }
            }
            samples.append(contentsOf: values.prefix(limit - samples.count))
        }
        var energy = 0.0
        for value in samples { energy += Double(value) * Double(value) }
        let rms = samples.isEmpty ? 0 : (energy / Double(samples.count)).squareRoot()
        // -80 dBFS: below what any microphone's own noise gives.
        if samples.count < Int(SyncOptions.minimumOverlap * Double(rate)) || rms < 1e-4 { throw .silent(path: path) }
        return SyncSignal(samples: samples)
    }
}
