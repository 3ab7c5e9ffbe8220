import Crypto
import Foundation

extension SHA256.Digest {
    /// The digest as 64 lowercase hex digits: the form the roll stores and prints.
    public var hex: String { withUnsafeBytes(SHA256.hex(bytes:)) }
}

extension HashedAuthenticationCode<SHA256> {
    /// The MAC as 64 lowercase hex digits (webhook signatures).
    public var hex: String { withUnsafeBytes(SHA256.hex(bytes:)) }
}

extension SHA256 {
    /// The SHA-256 of `bytes`, as 64 lowercase hex digits. For files, stream them through
    /// `SHA256()` in chunks instead (as the roll does), never load them whole.
    public static func hex(_ bytes: some DataProtocol) -> String {
        hash(data: bytes).hex
    }

    /// `bytes` as lowercase hex digits.
    static func hex(bytes: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (i, byte) in bytes.enumerated() {
                out[2 * i] = digits[Int(byte >> 4)]
                out[2 * i + 1] = digits[Int(byte & 0xf)]
            }
            return bytes.count * 2
        }
    }
}
