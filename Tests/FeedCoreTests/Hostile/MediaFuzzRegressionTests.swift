import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

/// Inputs that `media-reader-fuzz` (Fuzz/MediaReaderFuzz) found, kept as tests: each is written
/// to a temporary file and read the way the harness reads it; it must end in a typed
/// `MediaError` with a one-line description naming the file, or read correctly — never a crash.
@Suite("Media fuzz regressions", .offThePool)
struct MediaFuzzRegressionTests {
    /// 468 bytes: a one-frame VP8 WebM whose container says 16x16 but whose key frame declares
    /// 16000x16000 (256 Mpx, over the 100 Mpx limit). Minimised from a fuzzer slow unit (61 s;
    /// 0.7 s and ~600 MB peak alone): the container check at open cannot see the key frame's
    /// size, and FFmpeg allocated and decoded the whole picture before the shim's size check.
    static let keyFrameLargerThanItsContainer = hex(
        "1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878102428581021853806701000000000001a4",
        "114d9b74ba4dbb8b53ab841549a96653ac81a14dbb8b53ab841654ae6b53ac81c64dbb8c53ab841254c36753ac82010c",
        "4dbb8c53ab841c53bb6b53ac82018eec0100000000000059000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "00000000000000000000000000000000001549a966a02ad7b1830f42404d80844c6176665741844c6176664489884059",
        "0000000000001654ae6bc1ae0100000000000038d7810173c58800000000000000019c810022b59c83756e6488810086",
        "85565f56503883810123e3838405f5e100e089b08110ba81109a81021254c367d17373ce63c08b63c588000000000000",
        "000167c89845a387454e434f44455244878b4c617663206c696276707867c8a245a3884455524154494f4e4487943030",
        "3a30303a30302e31303030303030303000001f43b675a7e78100a3a2810000801002009d012a803e803e004708858588",
        "9984880202000c0d6000fec3e0001c53bb6b91bb8fb38100b78af78101f1820162f08103",
    )

    @Test("a VP8 key frame far larger than its container opens, then its picture is refused with exit 65")
    func keyFrameLargerThanItsContainer() throws {
        let folder = try ScratchFolder()
        let path = folder.path("huge-keyframe.webm")
        try Data(Self.keyFrameLargerThanItsContainer).write(to: URL(fileURLWithPath: path))

        let reader = try MediaReader(path: path, threads: 1)
        #expect(reader.info.videoCodec == "vp8")
        #expect(reader.info.codedWidth == 16 && reader.info.codedHeight == 16)
        do {
            let picture = try reader.nextPicture()
            Issue.record("a \(picture.map { "\($0.width)x\($0.height)" } ?? "missing") picture was returned")
        } catch {
            // .refused while the shim checks the decoded picture; .decodeFailed once the decoder
            // refuses it before allocating (AVCodecContext.max_pixels). Either is exit 65.
            switch error {
            case .refused, .decodeFailed: break
            default: Issue.record("unexpected \(error)")
            }
            #expect(error.kind == .invalidData)
            #expect(error.description.hasPrefix(path + ": "))
            #expect(!error.description.contains("\n"))
        }
        // The probe (no decoder) still reports what the container says.
        #expect(try MediaProbe.probe(path: path).codedWidth == 16)
    }

    /// 3,384 bytes: two MPEG-TS recordings back to back (\`cat a.ts b.ts\`), each a 16x16 H.264
    /// frame and one MP2 frame (1152 samples at 16 kHz), the first stereo, the second mono. Made
    /// by hand to reproduce a fuzzer crash (15,770 bytes): the resampler set up for the first
    /// audio frame's two channels was handed the mono frame and read its missing second plane
    /// (SEGV in swr_convert, NULL read). The reader now drains the resampler and sets up a new
    /// one when the decoded audio changes format, rate or channel count.
    static let audioChannelsChangeMidStream = hex(
        "474011100042f0250001c10000ff01ff0001fc80144812010646466d70656709536572766963653031777c43caffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff47400010",
        "0000b00d0001c100000001f0002ab104b2ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff475000100002b017",
        "0001c10000e100f0001be100f00004e101f000b5ba160affffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff474100300750000080557e00",
        "000001e00000808005210007ed850000000109f0000000016742c00ada7b011000000300100000030140f1226a000000",
        "0168ce0197200000010605ffff50dc45e9bde6d948b7962cd820d923eeef78323634202d20636f726520313634207233",
        "3039352062616565343030202d20482e3236342f4d5045472d342041564320636f646563202d20436f70796c65667420",
        "323030332d32303232202d20687474703a2f2f7777772e766964656f6c616e2e470100116f72672f783236342e68746d",
        "6c202d206f7074696f6e733a2063616261633d30207265663d31206465626c6f636b3d303a303a3020616e616c797365",
        "3d303a30206d653d646961207375626d653d30207073793d31207073795f72643d312e30303a302e3030206d69786564",
        "5f7265663d30206d655f72616e67653d3136206368726f6d615f6d653d31207472656c6c69733d30203878386463743d",
        "302063716d3d3020646561647a6f6e653d32312c313120666173745f4701001270736b69703d31206368726f6d615f71",
        "705f6f66667365743d3020746872656164733d31206c6f6f6b61686561645f746872656164733d3120736c696365645f",
        "746872656164733d30206e723d3020646563696d6174653d3120696e7465726c616365643d3020626c757261795f636f",
        "6d7061743d3020636f6e73747261696e65645f696e7472613d3020626672616d65733d3020776569676874703d30206b",
        "6579696e743d323530206b6579696e745f6d696e3d313020470100334100ffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7363",
        "656e656375743d3020696e7472615f726566726573683d302072633d637266206d62747265653d30206372663d35312e",
        "302071636f6d703d302e36302071706d696e3d302071706d61783d3639207170737465703d342069705f726174696f3d",
        "312e34302061713d3000800000016588843a2780474101300140000001c00128808005210007d861fff5480455333311",
        "0122402002541554000000000000002bc3fffffff56fc95bf234d517517672dd9cb77737738738739359b59b59359359",
        "759759f39f39ef9ef7777776db6db6db6b5f3e6b5ad6b5ad6b5ad6bb43b436db6dc6e35af9f35ad6b5ad6b5ad6b4fa8f",
        "a9a6d37b3d96b9122b52ca4a5421292530ef0ef75bac6a34d6be7cd6b5ad6b5ad6b5adae5ae564320160b5af16229591",
        "8b5b7b84294b1ab1a974bb76bb35bdfb470101313f00ffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa94ad6b39b598c4a55155176",
        "9b48442210bb7484267273b5a42042688688402005028d6f5ea10e23184210000630110115329b69b47bebd7632d6b5a",
        "d0831894a1021068b448040294f5eb5a573b39841ad18cc88c8802013319929b9700085eec635a10800206206ee776af",
        "56c62b576b5739738a56b529474011100042f0250001c10000ff01ff0001fc80144812010646466d7065670953657276",
        "6963653031777c43caffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffff474000100000b00d0001c100000001f0002ab104b2ffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffff475000100002b0170001c10000e100f0001be100f00004e101f000b5ba160affffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "474100300750000080557e00000001e00000808005210007ed850000000109f0000000016742c00ada7b011000000300",
        "100000030140f1226a0000000168ce0197200000010605ffff50dc45e9bde6d948b7962cd820d923eeef78323634202d",
        "20636f7265203136342072333039352062616565343030202d20482e3236342f4d5045472d342041564320636f646563",
        "202d20436f70796c65667420323030332d32303232202d20687474703a2f2f7777772e766964656f6c616e2e47010011",
        "6f72672f783236342e68746d6c202d206f7074696f6e733a2063616261633d30207265663d31206465626c6f636b3d30",
        "3a303a3020616e616c7973653d303a30206d653d646961207375626d653d30207073793d31207073795f72643d312e30",
        "303a302e3030206d697865645f7265663d30206d655f72616e67653d3136206368726f6d615f6d653d31207472656c6c",
        "69733d30203878386463743d302063716d3d3020646561647a6f6e653d32312c313120666173745f4701001270736b69",
        "703d31206368726f6d615f71705f6f66667365743d3020746872656164733d31206c6f6f6b61686561645f7468726561",
        "64733d3120736c696365645f746872656164733d30206e723d3020646563696d6174653d3120696e7465726c61636564",
        "3d3020626c757261795f636f6d7061743d3020636f6e73747261696e65645f696e7472613d3020626672616d65733d30",
        "20776569676874703d30206b6579696e743d323530206b6579696e745f6d696e3d313020470100334100ffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "ffffffffffffffffffff7363656e656375743d3020696e7472615f726566726573683d302072633d637266206d627472",
        "65653d30206372663d35312e302071636f6d703d302e36302071706d696e3d302071706d61783d363920717073746570",
        "3d342069705f726174696f3d312e34302061713d3000800000016588843a2780474101300140000001c0012880800521",
        "0007d861fff548c475534da49f7e8000000581fffffa76e6624aaf7eee5fb3996b066f6b16906726b16936726d3692df",
        "35efbefbbbbbbb6df2d8b63e7cf96c5b1f2d8b62d8d81d8ddddde1b6f96c5b1f3e7cb62d8f96c5b16c6a1c54e911bd03",
        "12c7d6ad0748a699930a0470f4461820deca756dbe5b1757cf9f2eab63e5b16c5adb678d39009be2de50a59eb0d6d678",
        "6991da5ba1105d5645aef71b6fa1946035d4b3dc4691c7438c0b32cb470101313f00ffffffffffffffffffffffffffff",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "1db30829b7ce3add5d52474a1934c4ab237d9765730025a6dbe8800b65121c52bf8baa4be28b40860a576ec8ca937add",
        "527082d5721c59ca797f624507a9548514bdbc4718523ce9262de2233066c960002069182471659fc8243eae51c71029",
        "580a68500b8dedb70f107920da6f04454e83d749bb2db200",
    )

    @Test("audio that turns from stereo to mono mid-stream is resampled to the end, both parts")
    func audioChannelsChangeMidStream() throws {
        let folder = try ScratchFolder()
        let path = folder.path("stereo-then-mono.ts")
        try Data(Self.audioChannelsChangeMidStream).write(to: URL(fileURLWithPath: path))

        let reader = try MediaReader(path: path, video: false, audio: true, threads: 1)
        #expect(reader.info.audioCodec == "mp2" && reader.info.audioSampleRate == 16000)
        var frames = 0, lastTime = -1.0
        while let chunk = try reader.readAudio(sampleRate: 48000, channels: 2) {
            #expect(chunk.channels == 2 && chunk.samples.count == chunk.frames * 2)
            #expect(chunk.time > lastTime)
            lastTime = chunk.time
            frames += chunk.frames
        }
        // Two MP2 frames of 1152 samples at 16 kHz, at 48 kHz: 2 * 1152 * 3, give or take the
        // resampler's edges.
        #expect(abs(frames - 2 * 1152 * 3) <= 64, "\(frames) frames")
    }

    /// The bytes of a hex literal split over lines.
    private static func hex(_ lines: String...) -> [UInt8] {
        let digits = Array(lines.joined().utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
