/// Text from a feed or a file name made safe to print to a terminal: control characters
/// (C0 other than tab, DEL, C1) could move the cursor, retitle the window or worse, so each
/// becomes U+FFFD. Newlines and tabs become spaces: every caller prints one line per value.
enum Printable {
    static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case _ where isControl(scalar): out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
