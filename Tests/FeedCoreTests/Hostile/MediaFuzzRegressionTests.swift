import Foundation
import Testing
@testable import FeedCore

/// Inputs that `media-reader-fuzz` (Fuzz/MediaReaderFuzz) found, kept as tests: each is written
/// to a temporary file and read the way the harness reads it; it must end in a typed
/// `MediaError` with a one-line description naming the file, never a crash.
@Suite("Media fuzz regressions")
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
        let folder = try TestFiles.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge-keyframe.webm").path
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
            #expect(error.exitStatus == .dataError)
            #expect(error.description.hasPrefix(path + ": "))
            #expect(!error.description.contains("\n"))
        }
        // The probe (no decoder) still reports what the container says.
        #expect(try MediaProbe.probe(path: path).codedWidth == 16)
    }

    /// The bytes of a hex literal split over lines.
    private static func hex(_ lines: String...) -> [UInt8] {
        let digits = Array(lines.joined().utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
