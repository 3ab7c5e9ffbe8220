import Foundation

/// RFC 4648 §5 base64url without padding, as JWTs, signed links and For You cursors write it.
package enum Base64URL {
    /// `bytes` encoded.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        // Over the base64 bytes themselves: Foundation's replacingOccurrences, three times over,
        // was a fifth of a post listing's time (two signed links a post).
        var encoded = Array(Data(bytes).base64EncodedData())
        while encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
        for index in encoded.indices {
            switch encoded[index] {
            case UInt8(ascii: "+"): encoded[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): encoded[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The bytes of `text`, or nil when it is not base64url.
    package static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
