import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll.contactSheet")
struct RollSheetTests {
    @Test("three recordings in two columns: a PNG of the layout's size, newest first, labelled")
    func sheet() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        for seed in 1...3 { try await roll.add([RollTestSupport.clip(folder.url("\(seed).mp4"), seed: seed).path]) }
        let out = folder.url("sheet.png")
        let sheet = try await roll.saveContactSheet(to: out.path, columns: 2)
        let expected = (width: ContactSheet.gap + 2 * (ContactSheet.cellWidth + ContactSheet.gap),
                        height: ContactSheet.gap + 2 * (ContactSheet.cellHeight + ContactSheet.labelHeight + ContactSheet.gap))
        let size = try #require(ImageHeader.pngSize([UInt8](try Data(contentsOf: out))))
        #expect(size.width == expected.width && size.height == expected.height)
        #expect(sheet.count == 3)
        // The fourth cell is empty background; the first holds a picture, not the cell's grey.
        let first = ContactSheet.origin(of: 0, columns: 2)
        let centre = sheet.canvas.pixel(x: first.x + ContactSheet.cellWidth / 2, y: first.y + ContactSheet.cellHeight / 2)
        #expect(centre != (40, 40, 40) && centre != (16, 16, 16))
        // Each label strip has light text pixels.
        for index in 0..<3 {
            let origin = ContactSheet.origin(of: index, columns: 2)
            var lit = 0
            for y in origin.y + ContactSheet.cellHeight..<origin.y + ContactSheet.cellHeight + ContactSheet.labelHeight {
                for x in origin.x..<origin.x + ContactSheet.cellWidth where sheet.canvas.pixel(x: x, y: y).0 > 200 { lit += 1 }
            }
            #expect(lit > 20, "label of cell \(index)")
        }
    }

    @Test("an empty roll has nothing to draw (exit 65)")
    func empty() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        await #expect(throws: RollError.emptyRoll) { try await roll.contactSheet() }
        #expect(RollError.emptyRoll.kind == .invalidData)
    }
}
