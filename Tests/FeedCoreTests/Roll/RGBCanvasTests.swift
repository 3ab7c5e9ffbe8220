import Testing
@testable import FeedCore

@Suite("RGBCanvas and its font")
struct RGBCanvasTests {
    @Test("fillRect clips to the canvas")
    func fill() {
        var canvas = RGBCanvas(width: 4, height: 3, fill: (1, 2, 3))
        canvas.fillRect(x: 2, y: 1, width: 10, height: 10, color: (9, 9, 9))
        #expect(canvas.pixel(x: 1, y: 1) == (1, 2, 3))
        #expect(canvas.pixel(x: 3, y: 2) == (9, 9, 9))
        #expect(canvas.pixels.count == 4 * 3 * 3)
    }

    @Test("blit copies rows honouring the source stride and clips at the edges")
    func blit() {
        var canvas = RGBCanvas(width: 3, height: 3)
        // A 2x2 source with a 1-pixel padding per row (stride 9).
        let source: [UInt8] = [10, 10, 10, 20, 20, 20, 0, 0, 0, 30, 30, 30, 40, 40, 40, 0, 0, 0]
        source.withUnsafeBufferPointer { canvas.blit($0, width: 2, height: 2, stride: 9, x: 2, y: 1) }
        #expect(canvas.pixel(x: 2, y: 1) == (10, 10, 10))
        #expect(canvas.pixel(x: 2, y: 2) == (30, 30, 30))
        #expect(canvas.pixel(x: 1, y: 1) == (0, 0, 0))
    }

    @Test("text draws the glyph's bits at the scale given; different digits differ")
    func text() {
        var one = RGBCanvas(width: 12, height: 14)
        one.draw("1", x: 0, y: 0, scale: 2, color: (255, 255, 255))
        var seven = RGBCanvas(width: 12, height: 14)
        seven.draw("7", x: 0, y: 0, scale: 2, color: (255, 255, 255))
        #expect(one != seven)
        // "1": top row 0x04 lights only the middle column (pixels 4–5 at scale 2).
        #expect(one.pixel(x: 4, y: 0) == (255, 255, 255) && one.pixel(x: 5, y: 1) == (255, 255, 255))
        #expect(one.pixel(x: 0, y: 0) == (0, 0, 0))
        let lit = stride(from: 0, to: one.pixels.count, by: 3).filter { one.pixels[$0] == 255 }.count
        let bits = BitmapFont.rows("1").reduce(0) { $0 + $1.nonzeroBitCount }
        #expect(lit == bits * 4)
    }

    @Test("every glyph fits in 5 bits and 7 rows, and the labels' characters have glyphs")
    func glyphs() {
        let unknown = BitmapFont.rows("\u{1}")
        for character in "0123456789#:.-smh " {
            let rows = BitmapFont.rows(character)
            #expect(rows.count == BitmapFont.height && rows.allSatisfy { $0 < 32 })
            #expect(rows != unknown, "\(character)")
        }
        #expect(BitmapFont.measure("#12", scale: 2) == (3 * 6 - 1) * 2)
    }
}
