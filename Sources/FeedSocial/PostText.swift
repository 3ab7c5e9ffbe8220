/// A post's description, checked: at most ``maximumLength`` characters, one line or several,
/// no control characters but line breaks (`\r\n` is kept as `\n`). Its hashtags and `@mentions`
/// are parsed once, here.
public struct PostText: Sendable, Equatable {
    /// The text as stored.
    public let text: String
    /// The hashtags, without `#`, lowercased, each once, in order of appearance.
    public let hashtags: [String]
    /// The user names mentioned (`@alice`), without `@`, each once, in order of appearance.
    public let mentions: [String]

    /// The most characters a description may hold (TikTok's caption limit).
    public static let maximumLength = 2200

    /// Checks `text`.
    /// - Throws: ``SocialError/invalidDescription(_:)`` naming what is wrong and where.
    public init(validating text: String) throws(SocialError) {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        let count = normalized.count
        if count > Self.maximumLength {
            throw SocialError.invalidDescription("is \(count) characters; at most \(Self.maximumLength)")
        }
        var position = 0
        for character in normalized {
            position += 1
            if character == "\n" { continue }
            for scalar in character.unicodeScalars where Self.isControl(scalar) {
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                throw SocialError.invalidDescription("has the control character \(code) at character \(position); only line breaks are allowed")
            }
        }
        self.init(stored: normalized)
    }

    /// C0 and C1 controls, DEL, and the line and paragraph separators (which some clients draw
    /// as breaks and others do not).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// The words that follow `sigil` (letters, digits, `_`, and `.` inside a mention), each once.
    static func words(after sigil: Character, in text: String, lowercased: Bool) -> [String] {
        var found: [String] = [], seen: Set<String> = []
        var current: String?
        var previous: Character = " "
        func flush() {
            if var word = current {
                while word.hasSuffix(".") { word.removeLast() }
                if lowercased { word = word.lowercased() }
                if !word.isEmpty, seen.insert(word).inserted { found.append(word) }
            }
            current = nil
        }
        for character in text {
            if current != nil {
                if character.isLetter || character.isNumber || character == "_" || (sigil == "@" && character == ".") {
                    current!.append(character)
                    previous = character
                    continue
                }
                flush()
            }
            // A sigil starts a word only after a space or the start (so e-mail addresses are no mentions).
            if character == sigil, !(previous.isLetter || previous.isNumber || previous == "_") { current = "" }
            previous = character
        }
        flush()
        return found
    }
}

extension String {
    /// The string with `0`s before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension PostText {
    /// A description read back from a catalog, which checked it when it was written: parsed
    /// for its tags and mentions, not checked again.
    public init(stored text: String) {
        self.text = text
        hashtags = Self.words(after: "#", in: text, lowercased: true)
        mentions = Self.words(after: "@", in: text, lowercased: false)
    }
}
