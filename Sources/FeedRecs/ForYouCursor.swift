import FeedCore
import Foundation

/// Where a For You session is: a seed for its exploration picks and the videos it served
/// already (the newest ``maxServed``), which the next pages leave out even before the client's
/// impressions arrive. Written `fy1.SEED.IDS`, IDS the ids ascending as base64url varint deltas.
public struct ForYouCursor: Sendable, Equatable {
    /// The session's seed.
    public var seed: UInt64
    /// Videos served on earlier pages, oldest first.
    public var served: [Int64]

    /// The most ids a cursor carries.
    public static let maxServed = 400

    /// A cursor.
    public init(seed: UInt64, served: [Int64] = []) {
        self.seed = seed
        self.served = Array(served.suffix(Self.maxServed))
    }

    /// The cursor after a page of `ids`.
    public func after(_ ids: [Int64]) -> ForYouCursor { ForYouCursor(seed: seed, served: served + ids) }

    /// Its text.
    public var text: String {
        var bytes: [UInt8] = []
        var previous: Int64 = 0
        // The newest `maxServed` in the order served are kept; written ascending (smaller deltas).
        for id in served.sorted() {
            var delta = UInt64(bitPattern: id &- previous)
            previous = id
            repeat {
                var byte = UInt8(delta & 0x7F)
                delta >>= 7
                if delta != 0 { byte |= 0x80 }
                bytes.append(byte)
            } while delta != 0
        }
        return "fy1.\(String(seed, radix: 16)).\(Base64URL.encode(bytes))"
    }

    /// The cursor `text` names.
    /// - Throws: ``RecsError/invalidCursor(_:)`` for text this server did not write.
    public init(text: String) throws(RecsError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "fy1", let seed = UInt64(parts[1], radix: 16) else { throw .invalidCursor(text) }
        guard let data = Base64URL.decode(parts[2]) else { throw .invalidCursor(text) }
        var served: [Int64] = [], previous: Int64 = 0, value: UInt64 = 0, shift: UInt64 = 0
        for byte in data {
            guard shift < 64 else { throw .invalidCursor(text) }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                previous &+= Int64(bitPattern: value)
                served.append(previous)
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        guard shift == 0, served.count <= Self.maxServed else { throw .invalidCursor(text) }
        self.init(seed: seed, served: served)
    }
}
