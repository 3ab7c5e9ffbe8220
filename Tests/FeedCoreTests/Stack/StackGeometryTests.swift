import Testing
@testable import FeedCore

@Suite("StackGeometry")
struct StackGeometryTests {
    static func geometry(_ front: (Int, Int), _ back: (Int, Int), _ configure: (inout StackOptions) -> Void = { _ in }) throws -> StackGeometry {
        var options = StackOptions(output: "out.mp4")
        configure(&options)
        return try StackGeometry.compute(front: (front.0, front.1), back: (back.0, back.1), options: options)
    }

    static func allEven(_ g: StackGeometry) -> Bool {
        [g.width, g.height, g.front.x, g.front.y, g.front.width, g.front.height, g.back.x, g.back.y, g.back.width, g.back.height]
            .allSatisfy { $0 % 2 == 0 }
    }

    @Test("vstack: common width of the narrower input, aspect kept, back on top")
    func vstack() throws {
        let g = try Self.geometry((1080, 1920), (720, 1280))
        #expect(g.width == 720 && g.height == 2560)
        #expect(g.back == StackGeometry.Slot(x: 0, y: 0, width: 720, height: 1280))
        #expect(g.front == StackGeometry.Slot(x: 0, y: 1280, width: 720, height: 1280))
    }

    @Test("odd input sizes give even slots", arguments: [(1079, 1919), (641, 361), (33, 77)])
    func odd(_ size: (Int, Int)) throws {
        for layout in StackOptions.Layout.allCases {
            let g = try Self.geometry(size, (size.1, size.0)) { $0.layout = layout }
            #expect(Self.allEven(g), "\(layout) \(g)")
        }
    }

    @Test("hstack: common height, side by side; --width sets the total width")
    func hstack() throws {
        let g = try Self.geometry((720, 1280), (360, 640)) { $0.layout = .hstack }
        #expect(g.height == 640 && g.width == 720 && g.back.x == 0 && g.front.x == 360)
        let w = try Self.geometry((720, 1280), (720, 1280)) { $0.layout = .hstack; $0.width = 1000 }
        #expect(w.width == 1000 || abs(w.width - 1000) <= 4)
    }

    @Test("pip: the front a quarter of the width, in the top-right corner of the back")
    func pip() throws {
        let g = try Self.geometry((1080, 1920), (720, 1280)) { $0.layout = .pip }
        #expect(g.width == 720 && g.height == 1280)
        #expect(g.front.width == 180 && g.front.height == 320)
        #expect(g.front.x + g.front.width <= 720 && g.front.x > 360 && g.front.y < 64)
    }

    @Test("--size with pad centres the pictures with bars; crop fills the slot and cuts the middle")
    func fit() throws {
        let pad = try Self.geometry((1280, 720), (720, 1280)) { $0.size = .init(width: 720, height: 1280) }
        #expect(pad.needsFill && pad.back.height <= 640 && pad.front.width == 720 && pad.front.height == 406)
        #expect(pad.front.y > 640)
        let crop = try Self.geometry((1280, 720), (720, 1280)) { $0.size = .init(width: 720, height: 1280); $0.fit = .crop }
        #expect(!crop.needsFill && crop.front == StackGeometry.Slot(x: 0, y: 640, width: 720, height: 640,
                                                                    crop: Scaler.Rect(x: 235, y: 0, width: 810, height: 720)))
    }

    @Test("outputs over the pixel limit are refused")
    func tooLarge() {
        #expect(throws: StackError.self) { try Self.geometry((16000, 16000), (16000, 16000)) }
    }
}
