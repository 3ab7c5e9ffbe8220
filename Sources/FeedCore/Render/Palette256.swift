/// The nearest colour of the xterm 256-colour palette, for terminals without truecolor.
///
/// Only the parts of the palette every terminal agrees on are used: the 6×6×6 colour cube
/// (16…231, levels 0, 95, 135, 175, 215, 255) and the 24-step grey ramp (232…255, levels
/// 8, 18, … 238). The 16 system colours vary by theme and are never chosen.
public enum Palette256 {
    /// The cube level (0…5) nearest each channel value.
    private static let cubeStep: [UInt8] = (0..<256).map { (value: Int) -> UInt8 in
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return UInt8((value - 35) / 40)
    }
    private static let cubeLevel: [Int] = [0, 95, 135, 175, 215, 255]

    /// The palette index (16…255) nearest to the colour, by squared RGB distance; the grey
    /// ramp wins only when strictly nearer than the cube.
    @inline(__always)
    public static func index(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let r = Int(red), g = Int(green), b = Int(blue)
        let steps = cubeStep.withUnsafeBufferPointer { ($0[r], $0[g], $0[b]) }
        let cr = cubeLevel[Int(steps.0)], cg = cubeLevel[Int(steps.1)], cb = cubeLevel[Int(steps.2)]
        let cubeDistance = (r - cr) * (r - cr) + (g - cg) * (g - cg) + (b - cb) * (b - cb)
        let greyStep = min(max((r + g + b) / 3 - 3, 0) / 10, 23)
        let grey = 8 + 10 * greyStep
        let greyDistance = (r - grey) * (r - grey) + (g - grey) * (g - grey) + (b - grey) * (b - grey)
        if greyDistance < cubeDistance { return UInt8(232 + greyStep) }
        return 16 + 36 * steps.0 + 6 * steps.1 + steps.2
    }
}
