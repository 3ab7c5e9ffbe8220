import FeedCore
/// The nearest colour of the xterm 256-colour palette, for terminals without truecolor.
///
/// Only the parts of the palette every terminal agrees on are used: the 6×6×6 colour cube
/// (16…231, levels 0, 95, 135, 175, 215, 255) and the 24-step grey ramp (232…255, levels
/// 8, 18, … 238). The 16 system colours vary by theme and are never chosen.
public enum Palette256 {
    /// The cube step (0…5) nearest a channel value: levels are 0, then 95 + 40 × (step − 1).
    @inline(__always)
    private static func cubeStep(_ value: Int) -> Int {
        value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40
    }

    @inline(__always)
    private static func cubeLevel(_ step: Int) -> Int {
        step == 0 ? 0 : 55 + 40 * step
    }

    /// The palette index (16…255) nearest to the colour, by squared RGB distance; the grey
    /// ramp wins only when strictly nearer than the cube.
    @inline(__always)
    public static func index(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let r = Int(red), g = Int(green), b = Int(blue)
        let sr = cubeStep(r), sg = cubeStep(g), sb = cubeStep(b)
        let cr = cubeLevel(sr), cg = cubeLevel(sg), cb = cubeLevel(sb)
        let cubeDistance = (r - cr) * (r - cr) + (g - cg) * (g - cg) + (b - cb) * (b - cb)
        let greyStep = min(max((r + g + b) / 3 - 3, 0) / 10, 23)
        let grey = 8 + 10 * greyStep
        let greyDistance = (r - grey) * (r - grey) + (g - grey) * (g - grey) + (b - grey) * (b - grey)
        if greyDistance < cubeDistance { return UInt8(232 + greyStep) }
        return UInt8(truncatingIfNeeded: 16 + 36 * sr + 6 * sg + sb)
    }
}
