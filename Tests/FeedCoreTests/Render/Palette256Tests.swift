import Testing
@testable import FeedCore
@testable import FeedPlayer

@Suite struct Palette256Tests {
    /// Colours whose xterm palette entry is known: cube corners, a cube colour, grey ramp ends.
    @Test(arguments: [
        (0, 0, 0, 16), (255, 255, 255, 231), (255, 0, 0, 196), (0, 255, 0, 46), (0, 0, 255, 21),
        (95, 135, 175, 67), (255, 215, 0, 220), (128, 128, 128, 244), (8, 8, 8, 232), (238, 238, 238, 255),
        (100, 100, 100, 241), (250, 5, 5, 196),
    ] as [(UInt8, UInt8, UInt8, UInt8)])
    func knownColoursMapToTheirXtermIndex(red: UInt8, green: UInt8, blue: UInt8, index: UInt8) {
        #expect(Palette256.index(red: red, green: green, blue: blue) == index)
    }

    @Test func theChosenIndexIsAsNearAsAnyCubeOrGreyEntry() {
        // Given the palette's cube and grey entries, written out independently
        let levels = [0, 95, 135, 175, 215, 255]
        var palette: [Int: (Int, Int, Int)] = [:]
        for r in 0..<6 { for g in 0..<6 { for b in 0..<6 { palette[16 + 36 * r + 6 * g + b] = (levels[r], levels[g], levels[b]) } } }
        for step in 0..<24 { palette[232 + step] = (8 + 10 * step, 8 + 10 * step, 8 + 10 * step) }
        func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
            (a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)
        }

        // When every colour on a grid is mapped, then no entry is nearer than the chosen one
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 15) {
                for b in stride(from: 0, through: 255, by: 15) {
                    let colour = (r, g, b)
                    let chosen = Int(Palette256.index(red: UInt8(r), green: UInt8(g), blue: UInt8(b)))
                    let best = palette.values.map { distance(colour, $0) }.min()!
                    #expect(palette[chosen].map { distance(colour, $0) } == best, "\(colour) -> \(chosen)")
                }
            }
        }
    }
}
