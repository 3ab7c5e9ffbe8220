/// Why a live stream's media could not be packaged: a publisher's codec feed cannot serve, a tag
/// body or configuration that is damaged or hostile, an FLV file that is not one, or a call out
/// of order. Every case names what was wrong, so the RTMP session can tell the publisher.
public enum LivePackagingError: FeedFailure, Equatable {
    /// The publisher sends a codec other than AVC (H.264) video or AAC audio; `codec` names it
    /// (`HEVC (hvc1)`, `MP3`, `Sorenson H.263` …).
    case unsupportedCodec(track: LiveSample.Track, codec: String)
    /// `what` (a video tag body, an avcC record, a NAL unit) ends before the `needed` bytes it
    /// announces; `available` were there.
    case truncated(what: String, needed: Int, available: Int)
    /// The AVCDecoderConfigurationRecord is not one: `reason` says which field.
    case badAVCConfiguration(reason: String)
    /// The H.264 sequence parameter set cannot be read: `reason` says which field.
    case badSPS(reason: String)
    /// The AAC AudioSpecificConfig is not one feed can package: `reason` says why.
    case badAACConfiguration(reason: String)
    /// A video sample's length-prefixed NAL units do not add up to its size.
    case badNALUnits(reason: String)
    /// An FLV file is damaged at byte `offset`: `reason` says how.
    case badFLVFile(name: String, offset: Int, reason: String)
    /// An FLV file cannot be read at all.
    case cannotRead(path: String, reason: String)
    /// A coded frame came before the sequence header of its track.
    case sampleBeforeConfiguration(track: LiveSample.Track)
    /// A sequence header for a track that was not announced before the first frame (the init
    /// segment, written at the first frame, holds only the tracks known then).
    case trackAfterStart(track: LiveSample.Track)
    /// A second, different sequence header for a track mid-stream (a resolution change).
    case configurationChanged(track: LiveSample.Track)
    /// No video key frame for `seconds` (the options' maximum segment): the frame is refused,
    /// and so are those after it until a key frame comes.
    case keyFramesTooFarApart(seconds: Double)
    /// A frame's timestamp is outside ±2^40 ms (35 years): not one an FLV or RTMP stream carries.
    case timestampOutOfRange(Int64)
    /// Media came after the stream was finished.
    case finished
    /// A packaging option is out of range; `problem` says how.
    case invalidOption(name: String, problem: String)

    public var kind: FailureKind {
        switch self {
        case .unsupportedCodec, .truncated, .badAVCConfiguration, .badSPS, .badAACConfiguration, .badNALUnits,
             .badFLVFile, .sampleBeforeConfiguration, .trackAfterStart, .configurationChanged, .keyFramesTooFarApart,
             .timestampOutOfRange:
            .invalidData
        case .cannotRead: .missingInput
        case .finished, .invalidOption: .usage
        }
    }

    public var description: String {
        switch self {
        case .unsupportedCodec(let track, let codec):
            "\(track) codec \(codec) is not supported; publish H.264 (AVC) video and AAC audio"
        case .truncated(let what, let needed, let available):
            "\(what) is cut short: \(needed) bytes announced, \(available) present"
        case .badAVCConfiguration(let reason): "bad AVC sequence header (avcC): \(reason)"
        case .badSPS(let reason): "bad H.264 sequence parameter set: \(reason)"
        case .badAACConfiguration(let reason): "bad AAC sequence header (AudioSpecificConfig): \(reason)"
        case .badNALUnits(let reason): "bad H.264 frame: \(reason)"
        case .badFLVFile(let name, let offset, let reason): "\(name): not a valid FLV file at byte \(offset): \(reason)"
        case .cannotRead(let path, let reason): "\(path): cannot read: \(reason)"
        case .sampleBeforeConfiguration(let track):
            "\(track) frame before its sequence header; the publisher must send the sequence header first"
        case .trackAfterStart(let track):
            "\(track) sequence header after the first frame; send every track's sequence header before any frame"
        case .configurationChanged(let track):
            "\(track) sequence header changed mid-stream (a new resolution or codec setting); restart the stream to change it"
        case .keyFramesTooFarApart(let seconds):
            "no video key frame for \(Int(seconds)) s; set the encoder's key frame interval to 1 or 2 seconds"
        case .timestampOutOfRange(let milliseconds): "frame timestamp \(milliseconds) ms is out of range"
        case .finished: "the live stream is already finished; start a new one"
        case .invalidOption(let name, let problem): "\(name) \(problem)"
        }
    }
}
