import Crypto
import Foundation

/// Webhook signing secrets at rest: sealed with AES-256-GCM under a key derived (HKDF-SHA256,
/// as signed links' key is) from a secret file of the server's (`--secrets-key-file`), so the
/// catalog (a backup, a replica, a `SELECT`) holds no secret a webhook receiver trusts. A sealed
/// secret reads `enc:v1:KEYID:BASE64` (KEYID: 8 hex digits naming the key; BASE64: nonce,
/// ciphertext and tag). Several keys rotate: the first seals, every one opens, so a new key goes
/// first and the old one stays listed while what it sealed is still queued (a delivery keeps
/// the secret as it was when its event was queued).
public struct SecretBox: Sendable {
    /// A key and its id.
    struct Key: Sendable {
        let id: String
        let key: SymmetricKey
    }

    private let keys: [Key]

    /// The prefix of a sealed secret.
    static let prefix = "enc:v1:"

    /// A box whose keys derive from `materials` (each a secret file's bytes, 32 or more); the first
    /// seals. Nil for none.
    public init?(materials: [[UInt8]]) {
        guard !materials.isEmpty else { return nil }
        keys = materials.map { material in
            let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: material),
                                             info: Array("feed webhook secrets v1".utf8), outputByteCount: 32)
            let id = key.withUnsafeBytes { SHA256.hash(data: $0) }.hex.prefix(8)
            return Key(id: String(id), key: key)
        }
    }

    /// The id of the key that seals.
    public var sealingKeyID: String { keys[0].id }

    /// `secret` sealed under the first key (a secret sealed already is opened and sealed again).
    public func seal(_ secret: String) throws(SecretBoxError) -> String {
        let plain = try open(secret)
        do {
            let box = try AES.GCM.seal(Array(plain.utf8), using: keys[0].key)
            guard let combined = box.combined else { throw SecretBoxError.unreadable("no combined form") }
            return Self.prefix + keys[0].id + ":" + combined.base64EncodedString()
        } catch let error as SecretBoxError {
            throw error
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// The secret `stored` holds: opened with the key it names, or as it is when it is not sealed
    /// (stored before there was a key).
    /// - Throws: ``SecretBoxError/unknownKey(_:)`` when no key of this box sealed it,
    ///   ``SecretBoxError/unreadable(_:)`` when it was changed or is not this format.
    public func open(_ stored: String) throws(SecretBoxError) -> String {
        try Self.open(stored, keys: keys)
    }

    /// `stored` opened by `box` (nil: a sealed one cannot be opened).
    public static func open(_ stored: String, with box: SecretBox?) throws(SecretBoxError) -> String {
        try open(stored, keys: box?.keys ?? [])
    }

    /// Whether `stored` is sealed, and under which key.
    public static func keyID(of stored: String) -> String? {
        guard stored.hasPrefix(prefix) else { return nil }
        return stored.dropFirst(prefix.count).split(separator: ":", maxSplits: 1).first.map(String.init)
    }

    private static func open(_ stored: String, keys: [Key]) throws(SecretBoxError) -> String {
        guard let id = keyID(of: stored) else { return stored }
        guard let key = keys.first(where: { $0.id == id }) else { throw .unknownKey(id) }
        let encoded = stored.dropFirst(prefix.count + id.count + 1)
        guard let combined = Data(base64Encoded: String(encoded)) else { throw .unreadable("not base64") }
        do {
            let plain = try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key.key)
            return String(decoding: plain, as: UTF8.self)
        } catch {
            throw .unreadable("it does not open with key \(id) (changed, or sealed by another key of that id)")
        }
    }
}

/// Why a stored secret cannot be opened.
public enum SecretBoxError: Error, Equatable, CustomStringConvertible, FeedFailure {
    /// Sealed under key `id`, which is not given (`--secrets-key-file`).
    case unknownKey(String)
    /// Not a sealed secret that opens.
    case unreadable(String)

    public var kind: FailureKind { .usage }

    public var description: String {
        switch self {
        case let .unknownKey(id): "a webhook secret is sealed with key \(id), which this process was not given (--secrets-key-file)"
        case let .unreadable(reason): "a webhook secret cannot be opened: \(reason)"
        }
    }
}
