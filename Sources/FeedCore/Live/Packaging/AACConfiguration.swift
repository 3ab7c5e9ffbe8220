/// An AAC stream's decoder configuration: the AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1) an
/// FLV audio sequence header carries. Its bytes go into the init segment's `esds` unchanged; the
/// sample rate is the audio track's timescale.
public struct AACConfiguration: Sendable, Equatable {
    /// The AudioSpecificConfig as the publisher sent it.
    public var config: [UInt8]
    /// The audio object type as signalled first: 2 AAC-LC, 5 SBR (HE-AAC), 29 PS (HE-AACv2) …
    public var objectType: Int
    /// The core sample rate in Hz (for HE-AAC, half the output rate): the track's timescale.
    public var sampleRate: Int
    /// The number of channels (channel configuration 1–7; 7 is 7.1, eight channels).
    public var channels: Int
    /// The channel configuration field itself (1–7).
    public var channelConfiguration: Int
    /// Samples per frame at ``sampleRate`` (the core's, for HE-AAC): 1024, or 960 when the
    /// frame length flag is set.
    public var samplesPerFrame: Int

    /// The sampling frequency table of ISO/IEC 14496-3 (indexes 0–12).
    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// The object types whose config goes on with a GASpecificConfig (and its frame length flag).
    private static let generalAudio: Set<Int> = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23]

    /// The RFC 6381 codec string for an HLS `CODECS` attribute, `mp4a.40.2`.
    public var codecString: String { "mp4a.40.\(objectType)" }

    /// Parses an AudioSpecificConfig.
    /// - Throws: ``LivePackagingError/badAACConfiguration(reason:)`` when it is cut short, uses a
    ///   reserved sample rate index, or a channel configuration other than 1–7 (0 means a
    ///   program config element, which feed does not read).
    public init(config: [UInt8]) throws(LivePackagingError) {
        var reader = RBSPBitReader(config)
        do throws(LivePackagingError) {
            let objectType = try Self.objectType(&reader)
            let sampleRate = try Self.sampleRate(&reader)
            let channelConfiguration = Int(try reader.bits(4, "channelConfiguration"))
            var coreType = objectType
            if objectType == 5 || objectType == 29 {
                // Explicit SBR/PS: the extension rate, then the core object type.
                _ = try Self.sampleRate(&reader)
                coreType = try Self.objectType(&reader)
            }
            var samplesPerFrame = 1024
            if Self.generalAudio.contains(coreType), try reader.flag("frameLengthFlag") { samplesPerFrame = 960 }
            guard (1 ... 7).contains(channelConfiguration) else {
                throw .badAACConfiguration(reason: "channel configuration \(channelConfiguration) (only 1–7 are supported)")
            }
            self.objectType = objectType
            self.sampleRate = sampleRate
            self.channelConfiguration = channelConfiguration
            channels = channelConfiguration == 7 ? 8 : channelConfiguration
            self.samplesPerFrame = samplesPerFrame
            self.config = config
        } catch {
            // The bit reader speaks of SPS fields; here they are the AudioSpecificConfig's.
            if case .badSPS(let reason) = error { throw .badAACConfiguration(reason: reason) }
            throw error
        }
    }

    private static func objectType(_ reader: inout RBSPBitReader) throws(LivePackagingError) -> Int {
        let type = Int(try reader.bits(5, "audioObjectType"))
        return type == 31 ? 32 + Int(try reader.bits(6, "audioObjectTypeExt")) : type
    }

    private static func sampleRate(_ reader: inout RBSPBitReader) throws(LivePackagingError) -> Int {
        let index = Int(try reader.bits(4, "samplingFrequencyIndex"))
        if index == 15 {
            let rate = Int(try reader.bits(24, "samplingFrequency"))
            guard (1 ... 384_000).contains(rate) else { throw .badAACConfiguration(reason: "sample rate \(rate) Hz") }
            return rate
        }
        guard index < sampleRates.count else { throw .badAACConfiguration(reason: "reserved sampling frequency index \(index)") }
        return sampleRates[index]
    }
}
