import Testing
@testable import FeedCore
@testable import FeedPlayer

private typealias RGB = (UInt8, UInt8, UInt8)

/// A frame from rows of pixels, top row first.
private func frame(_ rows: [[RGB]]) -> RGBFrame {
    RGBFrame(width: rows.first?.count ?? 0, height: rows.count, pixels: rows.flatMap { $0.flatMap { [$0.0, $0.1, $0.2] } })
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

private let red: RGB = (255, 0, 0), green: RGB = (0, 255, 0), blue: RGB = (0, 0, 255)
private let ink: RGB = (10, 20, 30), white: RGB = (255, 255, 255), black: RGB = (0, 0, 0)

@Suite struct HalfBlockRendererTests {
    @Test func aTwoByTwoFrameIsTwoHalfBlocksWithTopAsForegroundAndBottomAsBackground() {
        // Given a 2×2-pixel frame: one row of two cells
        var renderer = HalfBlockRenderer()
        var out: [UInt8] = []

        // When it is rendered
        let changed = renderer.render(frame([[red, green], [blue, ink]]), into: &out)

        // Then both cells are sent, synchronized, with the colours reset at the end
        #expect(changed == 2)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[1;1H"
            + "\u{1B}[38;2;255;0;0;48;2;0;0;255m▀"
            + "\u{1B}[38;2;0;255;0;48;2;10;20;30m▀"
            + "\u{1B}[0m\u{1B}[?2026l")
    }

    @Test func anUnchangedFrameSendsNothing() {
        var renderer = HalfBlockRenderer()
        var out: [UInt8] = []
        renderer.render(frame([[red, green], [blue, ink]]), into: &out)
        out.removeAll()

        let changed = renderer.render(frame([[red, green], [blue, ink]]), into: &out)

        #expect(changed == 0)
        #expect(out.isEmpty)
    }

    @Test func aSecondFrameResendsOnlyTheCellThatChanged() {
        // Given three cells drawn once
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false))
        var out: [UInt8] = []
        renderer.render(frame([[red, green, blue], [ink, ink, ink]]), into: &out)
        out.removeAll()

        // When only the middle cell's top pixel changes
        let changed = renderer.render(frame([[red, white, blue], [ink, ink, ink]]), into: &out)

        // Then the cursor jumps to that cell and only it is sent
        #expect(changed == 1)
        #expect(text(out) == "\u{1B}[1;2H\u{1B}[38;2;255;255;255;48;2;10;20;30m▀\u{1B}[0m")
    }

    @Test func theCursorSkipsUnchangedRunsAndMovesToNewRows() {
        // Given a 4×2-cell frame drawn once
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false))
        var out: [UInt8] = []
        let before = [[RGB]](repeating: [RGB](repeating: ink, count: 4), count: 4)
        renderer.render(frame(before), into: &out)
        out.removeAll()

        // When cells (0,0), (0,3) and (1,1) change
        var after = before
        after[0][0] = red
        after[1][3] = red
        after[2][1] = green
        let changed = renderer.render(frame(after), into: &out)

        // Then it skips two cells with CUF, goes to row 2 with CUP, and sends only the
        // colours not already in effect (ink over red is ▄ in the current colours)
        #expect(changed == 3)
        #expect(text(out) == "\u{1B}[1;1H\u{1B}[38;2;255;0;0;48;2;10;20;30m▀"
            + "\u{1B}[2C▄"
            + "\u{1B}[2;2H\u{1B}[38;2;0;255;0m▀"
            + "\u{1B}[0m")
    }

    @Test func cellsOfOneColourAreSpacesOnTheBackgroundOrFullBlocks() {
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false))
        var out: [UInt8] = []

        renderer.render(frame([[white, white, red, red, red], [white, white, blue, ink, red]]), into: &out)

        // white/white sets the background once and is then a bare space; red/ink changes only
        // the background; red/red is a full block in the foreground already in effect
        #expect(text(out) == "\u{1B}[1;1H\u{1B}[48;2;255;255;255m  "
            + "\u{1B}[38;2;255;0;0;48;2;0;0;255m▀"
            + "\u{1B}[48;2;10;20;30m▀"
            + "█"
            + "\u{1B}[0m")
    }

    @Test func theOriginOffsetsEveryCursorMove() {
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false, originRow: 5, originColumn: 300))
        var out: [UInt8] = []

        renderer.render(frame([[red], [blue], [green], [ink]]), into: &out)

        #expect(text(out) == "\u{1B}[5;300H\u{1B}[38;2;255;0;0;48;2;0;0;255m▀"
            + "\u{1B}[6;300H\u{1B}[38;2;0;255;0;48;2;10;20;30m▀\u{1B}[0m")
    }

    @Test func the256ColourFallbackUsesPaletteIndexes() {
        var renderer = HalfBlockRenderer(options: .init(colorMode: .palette256, synchronizedOutput: false))
        var out: [UInt8] = []

        renderer.render(frame([[red, black], [(128, 128, 128), white]]), into: &out)

        #expect(text(out) == "\u{1B}[1;1H\u{1B}[38;5;196;48;5;244m▀\u{1B}[38;5;16;48;5;231m▀\u{1B}[0m")
    }

    @Test func in256ColoursACellWhoseNearestColoursDidNotChangeIsNotResent() {
        var renderer = HalfBlockRenderer(options: .init(colorMode: .palette256))
        var out: [UInt8] = []
        renderer.render(frame([[red], [blue]]), into: &out)
        out.removeAll()

        let changed = renderer.render(frame([[(250, 4, 3)], [(2, 1, 252)]]), into: &out)

        #expect(changed == 0 && out.isEmpty)
    }

    @Test func synchronizedOutputWrapsEachFrameOnlyWhenEnabled() {
        let picture = frame([[red, green], [blue, ink]])
        var on = HalfBlockRenderer(options: .init(synchronizedOutput: true))
        var off = HalfBlockRenderer(options: .init(synchronizedOutput: false))
        var withSync: [UInt8] = [], without: [UInt8] = []

        on.render(picture, into: &withSync)
        off.render(picture, into: &without)

        #expect(withSync == HalfBlockRenderer.beginSynchronizedUpdate + without + HalfBlockRenderer.endSynchronizedUpdate)
        #expect(!text(without).contains("2026"))
    }

    @Test func renderingAppendsToWhatTheCallerAlreadyHas() {
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false))
        var out = Array("head".utf8)

        renderer.render(frame([[red], [blue]]), into: &out)

        #expect(text(out).hasPrefix("head\u{1B}[1;1H"))
    }

    @Test func invalidatingResendsEverythingOrJustARegion() {
        // Given a 3×2-cell frame drawn once
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false))
        let picture = frame([[red, green, blue], [ink, ink, ink], [white, red, green], [blue, blue, blue]])
        var first: [UInt8] = []
        renderer.render(picture, into: &first)

        // When everything is invalidated, the same frame is sent again in full
        renderer.invalidate()
        var again: [UInt8] = []
        #expect(renderer.render(picture, into: &again) == 6)
        #expect(again == first)

        // When a region is invalidated (partly outside the frame), only its cells are sent
        renderer.invalidate(rows: 1..<5, columns: 2..<9)
        var region: [UInt8] = []
        #expect(renderer.render(picture, into: &region) == 1)
        #expect(text(region) == "\u{1B}[2;3H\u{1B}[38;2;0;255;0;48;2;0;0;255m▀\u{1B}[0m")
    }

    @Test func aNewSizeOrNewOptionsRedrawEveryCell() {
        var renderer = HalfBlockRenderer()
        var out: [UInt8] = []
        renderer.render(frame([[red, red], [red, red]]), into: &out)

        #expect(renderer.render(frame([[red, red, red], [red, red, red]]), into: &out) == 3)
        renderer.options.colorMode = .palette256
        #expect(renderer.render(frame([[red, red, red], [red, red, red]]), into: &out) == 3)
    }

    @Test func anOddLastPixelRowIsDrawnOverBlack() {
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false))
        var out: [UInt8] = []

        renderer.render(frame([[ink]]), into: &out)

        #expect(text(out) == "\u{1B}[1;1H\u{1B}[38;2;10;20;30;48;2;0;0;0m▀\u{1B}[0m")
    }

    @Test func withAToleranceSmallChangesAreSkippedAndDriftCountsFromWhatWasSent() {
        // Given a truecolor renderer that ignores changes of up to 4 per channel
        var renderer = HalfBlockRenderer(options: .init(synchronizedOutput: false, tolerance: 4))
        var out: [UInt8] = []
        renderer.render(frame([[(100, 100, 100), (100, 100, 100)], [(50, 50, 50), (50, 50, 50)]]), into: &out)

        // When the first cell drifts by 4 and the second by 5, then the first drifts by 4 more
        out.removeAll()
        let small = renderer.render(frame([[(104, 100, 100), (100, 100, 100)], [(50, 50, 46), (50, 55, 50)]]), into: &out)
        let sentSecond = text(out)
        out.removeAll()
        let drifted = renderer.render(frame([[(108, 100, 100), (100, 100, 100)], [(50, 50, 46), (50, 55, 50)]]), into: &out)

        // Then only the cell past the tolerance is sent, and the drift adds up against what was sent
        #expect(small == 1)
        #expect(sentSecond == "\u{1B}[1;2H\u{1B}[38;2;100;100;100;48;2;50;55;50m▀\u{1B}[0m")
        #expect(drifted == 1)
        #expect(text(out) == "\u{1B}[1;1H\u{1B}[38;2;108;100;100;48;2;50;50;46m▀\u{1B}[0m")
    }

    @Test func paddingAfterEachRowIsIgnored() {
        // Given the same 2×2 pixels packed and with 5 junk bytes after each row
        let packed = frame([[red, green], [blue, ink]])
        let padded = RGBFrame(width: 2, height: 2, stride: 11,
                              pixels: [255, 0, 0, 0, 255, 0, 9, 9, 9, 9, 9, 0, 0, 255, 10, 20, 30, 7, 7, 7, 7, 7])
        var a = HalfBlockRenderer(), b = HalfBlockRenderer()
        var fromPacked: [UInt8] = [], fromPadded: [UInt8] = []

        a.render(packed, into: &fromPacked)
        b.render(padded, into: &fromPadded)

        #expect(fromPadded == fromPacked)
    }
}
