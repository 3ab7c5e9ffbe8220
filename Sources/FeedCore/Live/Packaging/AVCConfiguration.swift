/// An H.264 stream's decoder configuration: the AVCDecoderConfigurationRecord (ISO/IEC 14496-15
/// §5.3.3.1) an FLV video sequence header carries, with the picture size read from its first
/// SPS. The record's bytes go into the init segment's `avcC` box unchanged.
public struct AVCConfiguration: Sendable, Equatable {
    /// The record as the publisher sent it.
    public var record: [UInt8]
    /// AVCProfileIndication.
    public var profile: UInt8
    /// profile_compatibility (the constraint flags).
    public var compatibility: UInt8
    /// AVCLevelIndication.
    public var level: UInt8
    /// How many bytes prefix each NAL unit in a sample: 1, 2 or 4.
    public var nalLengthSize: Int
    /// The sequence parameter sets (NAL units, header byte first).
    public var sequenceParameterSets: [[UInt8]]
    /// The picture parameter sets.
    public var pictureParameterSets: [[UInt8]]
    /// The first SPS, parsed: the displayed width and height.
    public var sequenceParameters: H264SequenceParameterSet

    /// The displayed width in pixels.
    public var width: Int { sequenceParameters.width }
    /// The displayed height in pixels.
    public var height: Int { sequenceParameters.height }

    /// The RFC 6381 codec string for an HLS `CODECS` attribute, `avc1.64001f`.
    public var codecString: String {
        "avc1." + [profile, compatibility, level].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Parses an AVCDecoderConfigurationRecord.
    /// - Throws: ``LivePackagingError/truncated(what:needed:available:)`` when a length runs past
    ///   the end, ``LivePackagingError/badAVCConfiguration(reason:)`` for a wrong version, NAL
    ///   length size or no SPS, ``LivePackagingError/badSPS(reason:)`` when the SPS cannot be read.
    public init(record: [UInt8]) throws(LivePackagingError) {
        var reader = LiveByteReader(record, what: "AVC sequence header (avcC)")
        let version = try reader.u8()
        guard version == 1 else { throw .badAVCConfiguration(reason: "configurationVersion \(version), expected 1") }
        profile = try reader.u8()
        compatibility = try reader.u8()
        level = try reader.u8()
        nalLengthSize = Int(try reader.u8() & 0x03) + 1
        guard nalLengthSize != 3 else { throw .badAVCConfiguration(reason: "NAL unit length size 3 (must be 1, 2 or 4)") }
        let spsCount = Int(try reader.u8() & 0x1F)
        guard spsCount > 0 else { throw .badAVCConfiguration(reason: "no sequence parameter set") }
        sequenceParameterSets = []
        for _ in 0 ..< spsCount {
            let length = Int(try reader.uint(2))
            guard length > 0 else { throw .badAVCConfiguration(reason: "an empty sequence parameter set") }
            sequenceParameterSets.append(Array(try reader.bytes(length)))
        }
        let ppsCount = Int(try reader.u8())
        pictureParameterSets = []
        for _ in 0 ..< ppsCount {
            let length = Int(try reader.uint(2))
            pictureParameterSets.append(Array(try reader.bytes(length)))
        }
        guard !pictureParameterSets.isEmpty else { throw .badAVCConfiguration(reason: "no picture parameter set") }
        // The high profiles' trailing chroma and bit-depth fields are left in `record` as they are.
        sequenceParameters = try H264SequenceParameterSet(nal: sequenceParameterSets[0])
        self.record = record
    }

    /// Checks that `payload` (a frame's data) is a whole number of NAL units, each prefixed by
    /// its length in ``nalLengthSize`` bytes.
    /// - Throws: ``LivePackagingError/badNALUnits(reason:)`` when a length is zero or runs past the end.
    public func checkNALUnits(_ payload: [UInt8]) throws(LivePackagingError) {
        var offset = 0
        while offset < payload.count {
            guard payload.count - offset >= nalLengthSize else {
                throw .badNALUnits(reason: "\(payload.count - offset) stray bytes after the last NAL unit")
            }
            var length = 0
            for index in offset ..< offset + nalLengthSize { length = length << 8 | Int(payload[index]) }
            offset += nalLengthSize
            guard length > 0, length <= payload.count - offset else {
                throw .badNALUnits(reason: "NAL unit of \(length) bytes at byte \(offset - nalLengthSize) of a \(payload.count)-byte frame")
            }
            offset += length
        }
    }
}
