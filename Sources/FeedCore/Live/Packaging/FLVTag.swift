/// What one FLV audio or video tag body carries (the same bytes as an RTMP audio or video
/// message): a codec configuration, a coded frame, or nothing to package. Only AVC video and
/// AAC audio are accepted; any other codec is refused with its name.
///
/// Video body: byte 0 is frame type << 4 | codec id (7 AVC), byte 1 the AVCPacketType (0
/// sequence header, 1 NAL units, 2 end of sequence), bytes 2–4 the signed composition time in
/// milliseconds, then the data. Audio body: byte 0 is sound format << 4 | rate, size and type
/// bits (format 10 AAC), byte 1 the AACPacketType (0 AudioSpecificConfig, 1 raw frame), then the
/// data.
/// ```swift
/// switch try FLVTag(video: body, timestamp: 40) { case .sample(let frame): … }
/// ```
public enum FLVTag: Sendable, Equatable {
    /// The AVC sequence header: sent before the first frame.
    case videoConfiguration(AVCConfiguration)
    /// The AAC sequence header: sent before the first frame.
    case audioConfiguration(AACConfiguration)
    /// A coded frame.
    case sample(LiveSample)
    /// AVC end of sequence, or a video info/command frame (frame type 5): nothing to package.
    case endOfSequence

    /// The FLV tag type of audio.
    public static let audioType: UInt8 = 8
    /// The FLV tag type of video.
    public static let videoType: UInt8 = 9
    /// The FLV tag type of script data (`onMetaData`).
    public static let scriptType: UInt8 = 18

    /// Parses a tag body of FLV tag type `type` (8 audio, 9 video) sent at `timestamp`
    /// milliseconds; nil for any other type (script data), which carries no media.
    /// - Throws: see ``init(video:timestamp:)`` and ``init(audio:timestamp:)``.
    public init?(type: UInt8, body: [UInt8], timestamp: Int64) throws(LivePackagingError) {
        switch type {
        case Self.videoType: try self.init(video: body, timestamp: timestamp)
        case Self.audioType: try self.init(audio: body, timestamp: timestamp)
        default: return nil
        }
    }

    /// Parses a video tag body sent at `timestamp` milliseconds (its decode time).
    /// - Throws: ``LivePackagingError/unsupportedCodec(track:codec:)`` for anything but AVC,
    ///   ``LivePackagingError/truncated(what:needed:available:)`` for a body too short for its
    ///   header or its NAL unit lengths, and the configuration's errors for a sequence header.
    public init(video body: [UInt8], timestamp: Int64) throws(LivePackagingError) {
        var reader = LiveByteReader(body, what: "video tag body")
        let first = try reader.u8()
        if first & 0x80 != 0 {
            // Enhanced RTMP: the codec is a FourCC after the first byte.
            let name = Self.printable(try reader.bytes(4))
            throw .unsupportedCodec(track: .video, codec: Self.enhancedNames[name].map { "\($0) (\(name))" } ?? name)
        }
        let frameType = first >> 4, codec = first & 0x0F
        guard codec == 7 else { throw .unsupportedCodec(track: .video, codec: Self.videoCodecName(codec)) }
        if frameType == 5 {
            self = .endOfSequence
            return
        }
        let packetType = try reader.u8()
        // A signed 24-bit number: shifted up and back down, so its sign bit spreads.
        let composition = (Int32(try reader.uint(3)) << 8) >> 8
        switch packetType {
        case 0:
            self = .videoConfiguration(try AVCConfiguration(record: Array(reader.rest())))
        case 1:
            let payload = Array(reader.rest())
            guard !payload.isEmpty else { throw .truncated(what: "AVC frame", needed: 1, available: 0) }
            self = .sample(LiveSample(track: .video, decodeTime: timestamp, compositionOffset: composition,
                                      isKeyFrame: frameType == 1, payload: payload))
        case 2:
            self = .endOfSequence
        default:
            throw .badNALUnits(reason: "AVCPacketType \(packetType) (expected 0, 1 or 2)")
        }
    }

    /// Parses an audio tag body sent at `timestamp` milliseconds.
    /// - Throws: ``LivePackagingError/unsupportedCodec(track:codec:)`` for anything but AAC,
    ///   ``LivePackagingError/truncated(what:needed:available:)`` for a body without its packet
    ///   type or data, ``LivePackagingError/badAACConfiguration(reason:)`` for a bad sequence header.
    public init(audio body: [UInt8], timestamp: Int64) throws(LivePackagingError) {
        var reader = LiveByteReader(body, what: "audio tag body")
        let format = try reader.u8() >> 4
        if format == 9 {
            // Enhanced RTMP audio: the codec is a FourCC after the first byte.
            let fourCC = try reader.bytes(4)
            throw .unsupportedCodec(track: .audio, codec: "enhanced RTMP " + Self.printable(fourCC))
        }
        guard format == 10 else { throw .unsupportedCodec(track: .audio, codec: Self.audioCodecName(format)) }
        let packetType = try reader.u8()
        let data = Array(reader.rest())
        switch packetType {
        case 0:
            self = .audioConfiguration(try AACConfiguration(config: data))
        case 1:
            guard !data.isEmpty else { throw .truncated(what: "AAC frame", needed: 1, available: 0) }
            self = .sample(LiveSample(track: .audio, decodeTime: timestamp, isKeyFrame: true, payload: data))
        default:
            throw .badAACConfiguration(reason: "AACPacketType \(packetType) (expected 0 or 1)")
        }
    }

    /// FLV's video codec ids, for the refusal.
    static func videoCodecName(_ id: UInt8) -> String {
        switch id {
        case 1: "JPEG"
        case 2: "Sorenson H.263"
        case 3: "Screen video"
        case 4: "On2 VP6"
        case 5: "On2 VP6 with alpha"
        case 6: "Screen video 2"
        case 7: "AVC"
        case 12: "HEVC"
        case 13: "AV1"
        default: "codec id \(id)"
        }
    }

    /// FLV's sound formats, for the refusal.
    static func audioCodecName(_ format: UInt8) -> String {
        switch format {
        case 0, 3: "Linear PCM"
        case 1: "ADPCM"
        case 2: "MP3"
        case 4, 5, 6: "Nellymoser"
        case 7: "G.711 A-law"
        case 8: "G.711 mu-law"
        case 10: "AAC"
        case 11: "Speex"
        case 13: "Opus"
        case 14: "MP3 8 kHz"
        case 15: "Device-specific sound"
        default: "sound format \(format)"
        }
    }

    /// A FourCC as text, `?` for bytes that are not printable ASCII.
    static func printable(_ fourCC: ArraySlice<UInt8>) -> String {
        String(decoding: fourCC.map { (32 ... 126).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// Enhanced RTMP's video FourCCs.
    private static let enhancedNames = ["hvc1": "HEVC", "av01": "AV1", "vp09": "VP9", "avc1": "AVC (enhanced RTMP)"]
}
