/// Copies one input's audio into the output, shifted onto the output's timeline and cut to it.
/// Runs on the compositor's thread; its reader decodes audio only.
final class AudioTrack {
    let format: AudioFormat
    let side: StackOptions.Audio
    private let reader: MediaReader
    /// Seconds added to the input's audio times to get output times.
    private let shift: Double
    /// Output samples (per channel) written so far.
    private var written = 0
    private var pending: [Float] = []
    private var pendingHead = 0
    /// Output sample index of the first pending sample; nil until the first chunk.
    private var pendingStart: Int?
    private var ended = false

    /// AAC sample rates; anything else is resampled to 48 kHz.
    static let aacRates: Set<Int> = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]

    init(path: String, side: StackOptions.Audio, shift: Double) throws(MediaError) {
        reader = try MediaReader(path: path, video: false, audio: true)
        let rate = reader.info.audioSampleRate.flatMap { Self.aacRates.contains($0) ? $0 : nil } ?? 48000
        format = AudioFormat(sampleRate: rate, channels: min(2, max(1, reader.info.audioChannels ?? 2)))
        self.side = side
        self.shift = shift
    }

    /// Writes audio up to output time `seconds`: silence where the input has none yet, input samples
    /// before output time 0 dropped.
    func write(upTo seconds: Double, into writer: VideoWriter) throws(MediaError) {
        let target = Int((seconds * Double(format.sampleRate)).rounded())
        let channels = format.channels
        while written < target && !ended {
            if pendingHead * channels >= pending.count {
                guard let chunk = try reader.readAudio(sampleRate: format.sampleRate, channels: channels, maxFrames: 4096) else {
                    ended = true
                    break
                }
                // The file's own timestamp: saturating, as a hostile one may be past any Int.
                if pendingStart == nil { pendingStart = Int(saturating: ((chunk.time + shift) * Double(format.sampleRate)).rounded()) }
                pending = chunk.samples
                pendingHead = 0
            }
            let start = pendingStart!
            if start > written {                      // a gap before the input's sound starts
                let n = min(start, target) - written
                try writer.appendAudio([Float](repeating: 0, count: n * channels))
                written += n
                continue
            }
            let available = pending.count / channels - pendingHead
            if start < written {                      // before output time 0: drop
                let n = min(written - start, available)
                pendingHead += n
                pendingStart = start + n
                continue
            }
            let n = min(available, target - written)
            try writer.appendAudio(Array(pending[(pendingHead * channels)..<((pendingHead + n) * channels)]))
            pendingHead += n
            pendingStart = start + n
            written += n
        }
    }
}
