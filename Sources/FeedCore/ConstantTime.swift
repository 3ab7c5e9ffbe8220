/// Comparisons of secrets whose time does not depend on where they differ, so a client cannot
/// learn a token byte by byte from how long a refusal takes.
package enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. The time depends on the lengths only.
    package static func equal(_ a: some Sequence<UInt8>, _ b: some Sequence<UInt8>) -> Bool {
        let a = Array(a), b = Array(b)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0, y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
