/// Turns messages into the chunks RTMP sends, at the writer's chunk size.
///
/// Headers are compressed per chunk stream as ffmpeg writes them: a full header (type 0)
/// the first time and whenever the message stream changes or time goes backwards; type 1
/// when the length or type changes; type 2 when only the timestamp delta changes; type 3
/// when the message repeats the last one's length, type and delta. Timestamps of 0xFFFFFF
/// and above go in an extended timestamp, repeated on the message's type 3 chunks.
public struct RTMPChunkWriter: Sendable {
    /// The longest payload RTMP's 24-bit length field holds.
    public static let maxPayloadLength = 0xFF_FFFF

    /// The chunk size in use: 128 (RTMP's default) until ``setChunkSize(_:)``.
    public private(set) var chunkSize = 128
    private var streams: [UInt32: Last] = [:]

    /// What the last message on a chunk stream was, for the next header.
    private struct Last {
        var type: RTMPMessageType
        var length: Int
        var streamID: UInt32
        var timestamp: UInt32
        var delta: UInt32
    }

    /// A writer at RTMP's default chunk size of 128.
    public init() {}

    /// The chunk stream a message of `type` goes on when the caller names none: 2 for
    /// protocol control (which the spec requires), 3 for commands, 4 audio, 5 data, 6 video.
    public static func defaultChunkStream(for type: RTMPMessageType) -> UInt32 {
        if type.isControl { return 2 }
        switch type {
        case .audio: return 4
        case .amf0Data, .amf3Data: return 5
        case .video: return 6
        default: return 3
        }
    }

    /// Set Chunk Size for `size` (cut to 1 … 0x7FFFFFFF), written at the old size; every
    /// later message is chunked at the new one. Send the bytes before anything written after.
    public mutating func setChunkSize(_ size: Int) -> [UInt8] {
        let size = min(max(size, 1), RTMPChunkReader.maxChunkSize)
        let bytes = chunks(RTMPControlMessage.setChunkSize(UInt32(size)).message, chunkStream: 2)
        chunkSize = size
        return bytes
    }

    /// `message` as chunks on `chunkStream` (by default the one ``defaultChunkStream(for:)``
    /// gives). Throws ``RTMPError/payloadTooLarge(length:)`` over 16 MiB - 1 and
    /// ``RTMPError/invalidChunkStream(_:)`` outside 2 … 65599.
    public mutating func write(_ message: RTMPMessage, chunkStream: UInt32? = nil) throws(RTMPError) -> [UInt8] {
        guard message.payload.count <= Self.maxPayloadLength else { throw .payloadTooLarge(length: message.payload.count) }
        let chunkStream = chunkStream ?? Self.defaultChunkStream(for: message.type)
        guard (2 ... 65599).contains(chunkStream) else { throw .invalidChunkStream(chunkStream) }
        return chunks(message, chunkStream: chunkStream)
    }

    private mutating func chunks(_ message: RTMPMessage, chunkStream: UInt32) -> [UInt8] {
        let length = message.payload.count
        var format: UInt8 = 0
        var value = message.timestamp
        if let last = streams[chunkStream], last.streamID == message.streamID, message.timestamp >= last.timestamp {
            value = message.timestamp - last.timestamp
            if last.type != message.type || last.length != length {
                format = 1
            } else {
                format = value == last.delta ? 3 : 2
            }
        }
        let extended = value >= 0xFF_FFFF
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + 18 + (length / max(chunkSize, 1)) * (extended ? 8 : 4))
        Self.appendBasicHeader(format: format, chunkStream: chunkStream, to: &bytes)
        if format < 3 { Self.append(min(value, 0xFF_FFFF), bytes: 3, to: &bytes) }
        if format < 2 {
            Self.append(UInt32(length), bytes: 3, to: &bytes)
            bytes.append(message.type.rawValue)
        }
        if format == 0 { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: message.streamID >> UInt32(shift))) } }
        if extended { Self.append(value, bytes: 4, to: &bytes) }
        var offset = 0
        while offset < length {
            if offset > 0 {
                Self.appendBasicHeader(format: 3, chunkStream: chunkStream, to: &bytes)
                if extended { Self.append(value, bytes: 4, to: &bytes) }
            }
            let end = offset + min(chunkSize, length - offset)
            bytes.append(contentsOf: message.payload[offset ..< end])
            offset = end
        }
        // A type 3 header repeats the last delta, so `value` is the delta whatever the type.
        streams[chunkStream] = Last(type: message.type, length: length, streamID: message.streamID,
                                    timestamp: message.timestamp, delta: value)
        return bytes
    }

    private static func appendBasicHeader(format: UInt8, chunkStream: UInt32, to bytes: inout [UInt8]) {
        switch chunkStream {
        case ..<64:
            bytes.append(format << 6 | UInt8(chunkStream))
        case ..<320:
            bytes.append(format << 6)
            bytes.append(UInt8(chunkStream - 64))
        default:
            bytes.append(format << 6 | 1)
            bytes.append(UInt8(truncatingIfNeeded: chunkStream - 64))
            bytes.append(UInt8(truncatingIfNeeded: (chunkStream - 64) >> 8))
        }
    }

    /// The low `count` bytes of `value`, big-endian.
    private static func append(_ value: UInt32, bytes count: Int, to bytes: inout [UInt8]) {
        for index in (0 ..< count).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(8 * index))) }
    }
}
