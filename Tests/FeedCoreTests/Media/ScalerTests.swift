import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

@Suite("Scaler", .offThePool)
struct ScalerTests {
    @Test("converts into a reused frame, upright, with a crop in upright coordinates")
    func reuse() throws {
        let folder = try ScratchFolder()
        let path = try NumberedClip.write(folder.path("a.mp4"), width: 48, height: 64, frames: 3, colour: .green, rotation: 90)
        let reader = try MediaReader(path: path)
        let scaler = Scaler()
        var frame = Frame(width: 48, height: 64, format: .rgb24)
        var bottom = Frame(width: 48, height: 32, format: .rgb24)

        var numbers: [Int] = []
        while let picture = try reader.nextPicture() {
            try scaler.convert(picture, into: &frame, rotation: reader.info.rotation)
            numbers.append(NumberedClip.number(in: frame))
        }
        try reader.seek(to: 0)
        let first = try #require(try reader.nextPicture())
        try scaler.convert(first, into: &bottom, rotation: 90, crop: Scaler.Rect(x: 0, y: 32, width: 48, height: 32))

        #expect(numbers == [0, 1, 2])
        #expect(NumberedClip.close(NumberedClip.colour(in: bottom, y: -32, height: 64), .green))
        #expect(throws: MediaError.self) {
            try scaler.convert(first, into: &bottom, rotation: 90, crop: Scaler.Rect(x: 0, y: 40, width: 48, height: 32))
        }
    }
}
