extension Int {
    /// `value` rounded toward zero and clamped to Int's range (NaN: 0). `Int(_:)` stops the
    /// process on a Double it cannot hold, and numbers from outside (a feed's `duration`, a
    /// server's JSON) may be anything JSON allows, `1e300` included.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807.0 {  // 2^63, the first Double past Int.max
            self = .max
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
