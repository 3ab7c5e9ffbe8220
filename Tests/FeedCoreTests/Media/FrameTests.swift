import Testing
@testable import FeedCore

@Suite("Frame")
struct FrameTests {
    @Test("rgb24: one plane of width*3 bytes a row, black")
    func rgb() {
        var frame = Frame(width: 5, height: 3, format: .rgb24)
        frame.setRGB(x: 4, y: 2, 1, 2, 3)
        #expect(frame.strides == [15] && frame.offsets == [0] && frame.bytes.count == 45)
        #expect(frame.rgb(x: 4, y: 2) == (1, 2, 3) && frame.rgb(x: 0, y: 0) == (0, 0, 0))
    }

    @Test("yuv420p: Y then U and V at half size rounded up, limited-range black")
    func yuv() {
        let frame = Frame(width: 5, height: 3, format: .yuv420p)
        #expect(frame.strides == [5, 3, 3] && frame.offsets == [0, 15, 21] && frame.bytes.count == 27)
        #expect(frame.sample(plane: 0, x: 4, y: 2) == 16 && frame.sample(plane: 2, x: 2, y: 1) == 128)
    }
}
