import Testing
@testable import FeedCore

/// The SPS reader: picture sizes with every kind of cropping, and garbage refused with a typed
/// error, never a crash.
@Suite("H264SequenceParameterSet")
struct H264SequenceParameterSetTests {
    /// Writes the bits of an SPS RBSP: fixed fields and Exp-Golomb codes.
    struct SPSWriter {
        var bits: [Bool] = []

        mutating func put(_ value: UInt64, _ count: Int) {
            for shift in (0 ..< count).reversed() { bits.append(value >> UInt64(shift) & 1 == 1) }
        }

        mutating func ue(_ value: UInt64) {
            let code = value + 1
            let length = 64 - code.leadingZeroBitCount
            put(0, length - 1)
            put(code, length)
        }

        mutating func se(_ value: Int64) { ue(value > 0 ? UInt64(2 * value - 1) : UInt64(-2 * value)) }

        /// The NAL unit: header 0x67, the bits, the stop bit, emulation prevention bytes.
        var nal: [UInt8] {
            var all = bits + [true]
            while all.count % 8 != 0 { all.append(false) }
            var rbsp: [UInt8] = []
            for start in stride(from: 0, to: all.count, by: 8) {
                rbsp.append(all[start ..< start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
            }
            var out: [UInt8] = [0x67], zeros = 0
            for byte in rbsp {
                if zeros >= 2 && byte <= 3 { out.append(3); zeros = 0 }
                out.append(byte)
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return out
        }
    }

    /// An SPS shaped by the arguments; cropping is (left, right, top, bottom) in crop units.
    struct Shape: Sendable, CustomTestStringConvertible {
        var name: String
        var profile: UInt64 = 66
        var chroma: UInt64 = 1
        var widthInMacroblocks: UInt64
        var heightInMapUnits: UInt64
        var frameOnly = true
        var crop: [UInt64]? = nil
        var scaling = false
        var pictureOrder: UInt64 = 0
        var width: Int
        var height: Int

        var testDescription: String { name }

        var nal: [UInt8] {
            var writer = SPSWriter()
            writer.put(profile, 8)
            writer.put(0, 8)
            writer.put(40, 8)
            writer.ue(0)
            if profile >= 100 {
                writer.ue(chroma)
                if chroma == 3 { writer.put(0, 1) }
                writer.ue(0)
                writer.ue(0)
                writer.put(0, 1)
                writer.put(scaling ? 1 : 0, 1)
                if scaling {
                    for list in 0 ..< (chroma == 3 ? 12 : 8) {
                        writer.put(list % 2 == 0 ? 1 : 0, 1)
                        // 8 → 13 → 0: two deltas, then the list repeats its last value.
                        if list % 2 == 0 { writer.se(5); writer.se(-13) }
                    }
                }
            }
            writer.ue(0)
            writer.ue(pictureOrder)
            if pictureOrder == 0 { writer.ue(2) }
            if pictureOrder == 1 {
                writer.put(0, 1)
                writer.se(1)
                writer.se(-1)
                writer.ue(2)
                writer.se(3)
                writer.se(-3)
            }
            writer.ue(1)
            writer.put(0, 1)
            writer.ue(widthInMacroblocks - 1)
            writer.ue(heightInMapUnits - 1)
            writer.put(frameOnly ? 1 : 0, 1)
            if !frameOnly { writer.put(0, 1) }
            writer.put(1, 1)
            if let crop {
                writer.put(1, 1)
                for offset in crop { writer.ue(offset) }
            } else {
                writer.put(0, 1)
            }
            writer.put(0, 1)   // no VUI
            return writer.nal
        }
    }

    static let shapes: [Shape] = [
        Shape(name: "baseline 320x240", widthInMacroblocks: 20, heightInMapUnits: 15, width: 320, height: 240),
        Shape(name: "high 4:2:0 1920x1080, 8 rows cropped", profile: 100, widthInMacroblocks: 120, heightInMapUnits: 68,
              crop: [0, 0, 0, 4], width: 1920, height: 1080),
        Shape(name: "high 4:2:0 1080x1920 portrait, 8 columns cropped", profile: 100, widthInMacroblocks: 68, heightInMapUnits: 120,
              crop: [0, 4, 0, 0], width: 1080, height: 1920),
        Shape(name: "high 4:4:4 1080 wide, crop unit 1", profile: 244, chroma: 3, widthInMacroblocks: 68, heightInMapUnits: 2,
              crop: [0, 8, 0, 0], width: 1080, height: 32),
        Shape(name: "interlaced 4:2:0 1920x1080, fields double the height and the crop", profile: 100, widthInMacroblocks: 120,
              heightInMapUnits: 34, frameOnly: false, crop: [0, 0, 0, 2], width: 1920, height: 1080),
        Shape(name: "monochrome, crop unit 1", profile: 100, chroma: 0, widthInMacroblocks: 4, heightInMapUnits: 4,
              crop: [1, 2, 3, 4], width: 61, height: 57),
        Shape(name: "4:2:2, crop unit 2 across and 1 down", profile: 122, chroma: 2, widthInMacroblocks: 4, heightInMapUnits: 4,
              crop: [1, 1, 1, 1], width: 60, height: 62),
        Shape(name: "scaling matrices and picture order type 1", profile: 100, widthInMacroblocks: 40, heightInMapUnits: 30,
              scaling: true, pictureOrder: 1, width: 640, height: 480),
    ]

    @Test("the displayed size is the macroblocks minus the cropping, in the crop units of the chroma format", arguments: shapes)
    func size(shape: Shape) throws {
        let sps = try H264SequenceParameterSet(nal: shape.nal)
        #expect(sps.width == shape.width)
        #expect(sps.height == shape.height)
        #expect(sps.profile == UInt8(shape.profile))
    }

    @Test("x264's own SPS, emulation prevention bytes and all, reads as 320x240 High profile 4:2:0")
    func x264() throws {
        let configuration = try AVCConfiguration(record: LiveMedia.avcRecord)
        #expect(configuration.sequenceParameterSets[0].contains(3))   // it has a 00 00 03 to remove
        let sps = try H264SequenceParameterSet(nal: configuration.sequenceParameterSets[0])
        #expect([Int(sps.profile), Int(sps.level), sps.chromaFormat, sps.width, sps.height] == [100, 13, 1, 320, 240])
    }

    @Test("a NAL unit that is not an SPS, an Exp-Golomb code of 32 zeros, cropping that leaves nothing, a picture over 16384 are refused with badSPS")
    func refusals() {
        var zeros = SPSWriter()
        zeros.put(66, 8)
        zeros.put(0, 16)
        zeros.put(0, 40)   // seq_parameter_set_id: 40 zeros
        let cases: [[UInt8]] = [
            [],
            [0x68, 0x42],                                                 // a PPS
            [0xE7, 0x42],                                                 // forbidden bit
            zeros.nal,
            Shape(name: "", widthInMacroblocks: 2, heightInMapUnits: 2, crop: [8, 8, 0, 0], width: 0, height: 0).nal,
            Shape(name: "", widthInMacroblocks: 1025, heightInMapUnits: 2, width: 0, height: 0).nal,
        ]
        for nal in cases {
            #expect(throws: LivePackagingError.self) { try H264SequenceParameterSet(nal: nal) }
            do throws(LivePackagingError) { _ = try H264SequenceParameterSet(nal: nal) } catch {
                guard case .badSPS = error else { Issue.record("\(error)"); continue }
            }
        }
    }

    @Test("every truncation of an SPS and thousands of random ones give badSPS or a size within bounds, never a crash")
    func garbage() {
        let whole = Self.shapes[7].nal
        var inputs = (1 ..< whole.count).map { Array(whole.prefix($0)) }
        var random = LiveMedia.Random(state: 7)
        for length in 0 ..< 3000 { inputs.append([0x67] + random.bytes(length % 40)) }
        for nal in inputs {
            do throws(LivePackagingError) {
                let sps = try H264SequenceParameterSet(nal: nal)
                #expect((1 ... H264SequenceParameterSet.maximumSide).contains(sps.width))
                #expect((1 ... H264SequenceParameterSet.maximumSide).contains(sps.height))
            } catch {
                guard case .badSPS = error else { Issue.record("\(error)"); continue }
            }
        }
    }
}
