/// One rendition of a ladder: its name (the p-number, e.g. `720p`, also its folder) and size.
public struct HLSRung: Sendable, Equatable {
    /// The folder and variant name, e.g. `720p`.
    public var name: String
    public var width: Int
    public var height: Int
    /// Peak bit rate cap in bits/s.
    public var maxrate: Int

    /// The rungs of `options.ladder` for an upright `width` x `height` picture, largest first:
    /// each ladder size is the rung's shorter side, the longer side keeps the aspect (even);
    /// sizes above the picture's shorter side are dropped. A picture smaller than every size
    /// gets one rung at its own size.
    public static func ladder(width: Int, height: Int, options: HLSOptions) -> [HLSRung] {
        let short = min(width, height), long = max(width, height)
        let even = { (value: Double) in max(2, Int((value / 2).rounded()) * 2) }
        var rungs: [HLSRung] = []
        for (index, p) in options.ladder.enumerated() where p <= short {
            let side = even(Double(p)), other = even(Double(long) * Double(p) / Double(short))
            let maxrate = options.maxrates?[index] ?? options.defaultMaxrate(p: p)
            rungs.append(HLSRung(name: "\(p)p", width: width <= height ? side : other, height: width <= height ? other : side, maxrate: maxrate))
        }
        if rungs.isEmpty {
            let p = even(Double(short))
            rungs.append(HLSRung(name: "\(p)p", width: even(Double(width)), height: even(Double(height)), maxrate: options.defaultMaxrate(p: p)))
        }
        return rungs.sorted { $0.width * $0.height > $1.width * $1.height }
    }
}
