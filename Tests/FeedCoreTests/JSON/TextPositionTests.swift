import Testing
@testable import FeedCore

@Suite struct TextPositionTests {
    @Test func countsLinesAndCharacterColumns() {
        let bytes = Array("ab\nçd🌮x\n\nz".utf8)
        let x = bytes.firstIndex(of: UInt8(ascii: "x"))!
        let z = bytes.firstIndex(of: UInt8(ascii: "z"))!
        #expect(TextPosition.locate([z, 0, x], in: bytes) == [
            TextPosition(line: 4, column: 1), TextPosition(line: 1, column: 1), TextPosition(line: 2, column: 4),
        ])
    }

    @Test func ignoresTheByteOrderMark() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{x".utf8)
        #expect(TextPosition.of(4, in: bytes) == TextPosition(line: 1, column: 2))
    }
}
