/// The percent-encoding Signature Version 4 asks for (RFC 3986's unreserved characters
/// `A-Z a-z 0-9 - . _ ~` stay, every other byte of the UTF-8 becomes `%XX` in capitals), which is
/// also how the request's own path and query are written, so what is signed is what is sent.
enum SigV4Encoding {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// `text` encoded; a `/` stays when `keepSlash` (an object key's path), else it is `%2F`.
    static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepSlash:
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
