import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

@Suite("ImageEncoder", .offThePool)
struct ImageEncoderTests {
    @Test("JPEG bytes start with SOI and end with EOI; better quality is bigger")
    func jpeg() throws {
        let frame = NumberedClip.picture(width: 64, height: 48, colour: .green, number: 77)

        let best = try ImageEncoder.jpeg(frame, quality: 2)
        let worst = try ImageEncoder.jpeg(frame, quality: 31)

        #expect(Array(best.prefix(2)) == [0xFF, 0xD8] && Array(best.suffix(2)) == [0xFF, 0xD9])
        #expect(best.count > worst.count)
    }

    @Test("PNG bytes carry the signature and the frame's size in IHDR, from rgb24 or yuv420p")
    func png() throws {
        for format in [Frame.Format.rgb24, .yuv420p] {
            let frame = Frame(width: 40, height: 30, format: format)

            let bytes = try ImageEncoder.png(frame)

            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(Array(bytes[16..<24]) == [0, 0, 0, 40, 0, 0, 0, 30])
        }
    }
}
