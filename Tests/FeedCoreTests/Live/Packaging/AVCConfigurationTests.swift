import Testing
@testable import FeedCore

/// The avcC record: its fields, the size from its SPS, and damaged records refused.
@Suite("AVCConfiguration")
struct AVCConfigurationTests {
    @Test("x264's record gives High profile level 1.3, 4-byte NAL lengths, one SPS and one PPS, 320x240, avc1.64000d")
    func record() throws {
        let configuration = try AVCConfiguration(record: LiveMedia.avcRecord)
        #expect(configuration.profile == 100 && configuration.level == 13)
        #expect(configuration.nalLengthSize == 4)
        #expect(configuration.sequenceParameterSets.count == 1 && configuration.pictureParameterSets.count == 1)
        #expect(configuration.width == 320 && configuration.height == 240)
        #expect(configuration.codecString == "avc1.64000d")
        #expect(configuration.record == LiveMedia.avcRecord)
    }

    @Test("every truncation of the record is refused with a typed error, never a crash")
    func truncations() {
        for length in 0 ..< LiveMedia.avcRecord.count - 4 {   // the last bytes are high-profile extras, not read
            #expect(throws: LivePackagingError.self) { try AVCConfiguration(record: Array(LiveMedia.avcRecord.prefix(length))) }
        }
    }

    @Test("a wrong version, a 3-byte NAL length, no SPS, no PPS, an SPS length past the end are refused",
          arguments: ["version 2", "NAL length size 3", "no SPS", "no PPS", "SPS length past the end"])
    func refusals(damage: String) {
        var record = LiveMedia.avcRecord
        switch damage {
        case "version 2": record[0] = 2
        case "NAL length size 3": record[4] = 0xFE
        case "no SPS": record[5] = 0xE0
        case "no PPS": record = Array(record.prefix(8 + 0x17)) + [0]
        default: record[6] = 0xFF
        }
        #expect(throws: LivePackagingError.self) { try AVCConfiguration(record: record) }
    }

    @Test("a frame of whole length-prefixed NAL units passes; a zero length, a length past the end, stray bytes are refused")
    func nalUnits() throws {
        let configuration = try AVCConfiguration(record: LiveMedia.avcRecord)
        try configuration.checkNALUnits([0, 0, 0, 2, 0x65, 0x88, 0, 0, 0, 1, 0x06])
        for frame: [UInt8] in [[0, 0, 0, 0], [0, 0, 0, 9, 0x65], [0, 0, 0, 1, 0x65, 0, 0]] {
            #expect(throws: LivePackagingError.self) { try configuration.checkNALUnits(frame) }
        }
    }
}
