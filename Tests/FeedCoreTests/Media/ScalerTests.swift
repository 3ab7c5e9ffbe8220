import Foundation
import Testing
@testable import FeedCore

@Suite("Scaler")
struct ScalerTests {
    @Test("converts into a reused frame, upright, with a crop in upright coordinates")
    func reuse() throws {
        let folder = TestClips.folder(); defer { TestClips.cleanUp(folder) }
        let path = try TestClips.write(folder + "/a.mp4", width: 48, height: 64, frames: 3, colour: .green, rotation: 90)
        let reader = try MediaReader(path: path)
        let scaler = Scaler()
        var frame = Frame(width: 48, height: 64, format: .rgb24)
        var bottom = Frame(width: 48, height: 32, format: .rgb24)

        var numbers: [Int] = []
        while let picture = try reader.nextPicture() {
            try scaler.convert(picture, into: &frame, rotation: reader.info.rotation)
            numbers.append(TestClips.number(in: frame))
        }
        try reader.seek(to: 0)
        let first = try #require(try reader.nextPicture())
        try scaler.convert(first, into: &bottom, rotation: 90, crop: Scaler.Rect(x: 0, y: 32, width: 48, height: 32))

        #expect(numbers == [0, 1, 2])
        #expect(TestClips.close(TestClips.colour(in: bottom, y: -32, height: 64), .green))
        #expect(throws: MediaError.self) {
            try scaler.convert(first, into: &bottom, rotation: 90, crop: Scaler.Rect(x: 0, y: 40, width: 48, height: 32))
        }
    }
}
