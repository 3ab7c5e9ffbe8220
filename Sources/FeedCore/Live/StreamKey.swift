import Crypto

/// Stream keys: `sk_` and 40 random lowercase hex digits (160 bits), safe in an RTMP URL's last
/// component and in OBS's "Stream Key" field. The catalog finds a stream by the key's SHA-256
/// (an index on a hash reveals nothing about the key through timing); the caller then compares
/// the key itself in constant time.
public enum StreamKey {
    /// A fresh key.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "sk_" + bytes.withUnsafeBytes(SHA256.hex(bytes:))
    }

    /// The SHA-256 (hex) of `key`, as the catalog indexes it.
    public static func hash(_ key: String) -> String { SHA256.hex(Array(key.utf8)) }

    /// Whether `text` has a key's shape (checked before any lookup: a publish name of 1 MB, or
    /// of the wrong alphabet, never reaches the catalog).
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43 && text.hasPrefix("sk_")
            && text.utf8.dropFirst(3).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
