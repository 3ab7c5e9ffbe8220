/// ANSI text styles, applied only when the stream allows colour (see `Terminal.usesColor`).
struct Style: Sendable {
    /// Whether styles produce escape codes; false means every method returns its text unchanged.
    let enabled: Bool

    /// Bold, for headers and names.
    func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dim, for secondary values.
    func dim(_ text: String) -> String { wrap(text, "2") }
    /// Red, for errors.
    func red(_ text: String) -> String { wrap(text, "31") }
    /// Yellow, for warnings.
    func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Cyan, for keys and hashtags.
    func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
