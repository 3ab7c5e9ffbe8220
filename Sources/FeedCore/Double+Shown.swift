extension Double {
    /// The number as a person writes it in an option or a message: a whole one without `.0`
    /// (`30`, `2`), else as Swift prints it (`0.5`, `1e+300`, `nan`). Never stops the process,
    /// whatever the value (`Int(_:)` would, past Int's range).
    public var shown: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
