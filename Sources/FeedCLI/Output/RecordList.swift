/// `key: value` lines with the values aligned, as `show` prints one record.
struct RecordList {
    /// The fields in order; a nil value prints as "-".
    var fields: [(key: String, value: String?)] = []

    /// Adds one field.
    mutating func add(_ key: String, _ value: String?) {
        fields.append((key, value))
    }

    /// The lines, newline-terminated; keys in cyan and absent values dimmed when `style` allows.
    func render(style: Style) -> String {
        let width = fields.map { $0.key.count + 1 }.max() ?? 0
        var out = ""
        for field in fields {
            let key = field.key + ":" + String(repeating: " ", count: width - field.key.count - 1)
            out += style.cyan(key) + " " + (field.value.map(Printable.text) ?? style.dim("-")) + "\n"
        }
        return out
    }
}
