import Crypto
import Foundation

/// `Feed-Signature: t=UNIX,v1=HEX`, where HEX is HMAC-SHA256(secret, "UNIX." + body) in
/// lowercase hex: Stripe's and Mux's scheme, so a receiver checks the body came from this
/// server and when (refusing old timestamps stops replays).
public enum WebhookSignature {
    /// The header's value for `body` signed at `time` (seconds since 1970).
    public static func header(secret: String, time: Int64, body: [UInt8]) -> String {
        let key = SymmetricKey(data: Array(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(time).".utf8) + body, using: key)
        return "t=\(time),v1=" + mac.hex
    }
}
