import Foundation
import Testing
@testable import FeedCore

/// Webhook secrets sealed at rest, and keys rotated.
@Suite("SecretBox")
struct SecretBoxTests {
    let a = Array("the first key of thirty-two bytes!!".utf8), b = Array("the second key, also 32 bytes long".utf8)

    @Test("sealed under the first key, opened by any; a plain secret (stored before a key) opens as it is")
    func sealAndOpen() throws {
        let box = try #require(SecretBox(materials: [a]))
        let sealed = try box.seal("whsec-0123456789abcdef")
        #expect(sealed.hasPrefix("enc:v1:\(box.sealingKeyID):") && !sealed.contains("whsec"))
        #expect(try box.open(sealed) == "whsec-0123456789abcdef")
        #expect(try box.seal("whsec-0123456789abcdef") != sealed, "a fresh nonce each time")
        #expect(try box.open("whsec-plain") == "whsec-plain")
        #expect(SecretBox(materials: []) == nil)
    }

    @Test("rotation: the new key first seals, the old one still opens what it sealed; sealing again moves it to the new key")
    func rotation() throws {
        let old = try #require(SecretBox(materials: [a])), rotated = try #require(SecretBox(materials: [b, a]))
        let sealed = try old.seal("whsec-rotate-me-please")
        #expect(try rotated.open(sealed) == "whsec-rotate-me-please")
        let moved = try rotated.seal(sealed)
        #expect(SecretBox.keyID(of: moved) == rotated.sealingKeyID && rotated.sealingKeyID != old.sealingKeyID)
        #expect(try rotated.open(moved) == "whsec-rotate-me-please")
        #expect(throws: SecretBoxError.unknownKey(rotated.sealingKeyID)) { try old.open(moved) }
        #expect(throws: SecretBoxError.unknownKey(old.sealingKeyID)) { try SecretBox.open(sealed, with: nil) }
    }

    @Test("a changed byte does not open")
    func tampered() throws {
        let box = try #require(SecretBox(materials: [a]))
        let sealed = try box.seal("whsec-do-not-touch-me")
        let head = String(sealed[..<sealed.index(sealed.startIndex, offsetBy: "enc:v1:".count + 9)])
        // One bit of the ciphertext flipped (not of the base64 text, whose padding bits decode to nothing).
        var bytes = try #require(Data(base64Encoded: String(sealed.dropFirst(head.count))))
        bytes[bytes.count / 2] ^= 0x01
        #expect(throws: SecretBoxError.self) { try box.open(head + bytes.base64EncodedString()) }
    }
}
