/// The events of a User Control message (type 4): a two-byte event type, then its data.
public enum RTMPUserControlEvent: Sendable, Equatable {
    /// 0: the stream is ready for data (a server sends it before `NetStream.Publish.Start`).
    case streamBegin(streamID: UInt32)
    /// 1: the stream's playback is over.
    case streamEOF(streamID: UInt32)
    /// 2: the stream has no more data for now.
    case streamDry(streamID: UInt32)
    /// 3: the client's buffer for the stream, in milliseconds.
    case setBufferLength(streamID: UInt32, milliseconds: UInt32)
    /// 4: the stream is a recording.
    case streamIsRecorded(streamID: UInt32)
    /// 6: a ping; the peer answers with a ping response carrying the same time.
    case pingRequest(timestamp: UInt32)
    /// 7: the answer to a ping.
    case pingResponse(timestamp: UInt32)
    /// Any other event type, kept as it came.
    case other(type: UInt16, data: [UInt8])

    /// The event `payload` holds; nil when it is shorter than its type needs.
    public init?(payload: [UInt8]) {
        guard payload.count >= 2 else { return nil }
        let type = UInt16(payload[0]) << 8 | UInt16(payload[1])
        func number(at offset: Int) -> UInt32? {
            guard payload.count >= offset + 4 else { return nil }
            return payload[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        switch type {
        case 0 ... 2, 4, 6, 7:
            guard let value = number(at: 2) else { return nil }
            switch type {
            case 0: self = .streamBegin(streamID: value)
            case 1: self = .streamEOF(streamID: value)
            case 2: self = .streamDry(streamID: value)
            case 4: self = .streamIsRecorded(streamID: value)
            case 6: self = .pingRequest(timestamp: value)
            default: self = .pingResponse(timestamp: value)
            }
        case 3:
            guard let stream = number(at: 2), let milliseconds = number(at: 6) else { return nil }
            self = .setBufferLength(streamID: stream, milliseconds: milliseconds)
        default:
            self = .other(type: type, data: Array(payload[2...]))
        }
    }

    /// The message payload: the event type, then its data.
    public var payload: [UInt8] {
        func bytes(_ type: UInt16, _ values: UInt32...) -> [UInt8] {
            var bytes = [UInt8(type >> 8), UInt8(type & 0xFF)]
            for value in values { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
            return bytes
        }
        return switch self {
        case let .streamBegin(stream): bytes(0, stream)
        case let .streamEOF(stream): bytes(1, stream)
        case let .streamDry(stream): bytes(2, stream)
        case let .setBufferLength(stream, milliseconds): bytes(3, stream, milliseconds)
        case let .streamIsRecorded(stream): bytes(4, stream)
        case let .pingRequest(timestamp): bytes(6, timestamp)
        case let .pingResponse(timestamp): bytes(7, timestamp)
        case let .other(type, data): bytes(type) + data
        }
    }
}
