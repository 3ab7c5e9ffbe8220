/// The protocol control messages (types 1 … 6): what each says, read from or made into an
/// ``RTMPMessage``. They travel on message stream 0 and chunk stream 2.
public enum RTMPControlMessage: Sendable, Equatable {
    /// The sender's chunks are this long from now on (1 … 0x7FFFFFFF).
    case setChunkSize(UInt32)
    /// Drop the unfinished message of this chunk stream.
    case abort(chunkStream: UInt32)
    /// The sender has received this many bytes in all (wrapping at 2^32).
    case acknowledgement(sequenceNumber: UInt32)
    /// A stream event or ping.
    case userControl(RTMPUserControlEvent)
    /// The sender wants an acknowledgement after every this many bytes it sends.
    case windowAcknowledgementSize(UInt32)
    /// The receiver may send this many bytes before waiting for an acknowledgement.
    case setPeerBandwidth(UInt32, limit: BandwidthLimit)

    /// How a Set Peer Bandwidth limit combines with the one before.
    public enum BandwidthLimit: UInt8, Sendable {
        /// Use this limit.
        case hard = 0
        /// Use the smaller of this limit and the current one.
        case soft = 1
        /// Hard if the last limit was hard, else ignore.
        case dynamic = 2
    }

    /// The control message `message` carries; nil when it is not a control message (type
    /// 1 … 6). Throws ``RTMPError/malformedControlMessage(type:length:)`` when its payload is
    /// too short (longer payloads are read from their start, as ffmpeg does).
    public init?(_ message: RTMPMessage) throws(RTMPError) {
        let payload = message.payload
        func number(at offset: Int) throws(RTMPError) -> UInt32 {
            guard payload.count >= offset + 4 else {
                throw .malformedControlMessage(type: message.type.rawValue, length: payload.count)
            }
            return payload[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        switch message.type {
        case .setChunkSize: self = .setChunkSize(try number(at: 0))
        case .abort: self = .abort(chunkStream: try number(at: 0))
        case .acknowledgement: self = .acknowledgement(sequenceNumber: try number(at: 0))
        case .userControl:
            guard let event = RTMPUserControlEvent(payload: payload) else {
                throw .malformedControlMessage(type: message.type.rawValue, length: payload.count)
            }
            self = .userControl(event)
        case .windowAcknowledgementSize: self = .windowAcknowledgementSize(try number(at: 0))
        case .setPeerBandwidth:
            let size = try number(at: 0)
            guard payload.count >= 5, let limit = BandwidthLimit(rawValue: payload[4]) else {
                throw .malformedControlMessage(type: message.type.rawValue, length: payload.count)
            }
            self = .setPeerBandwidth(size, limit: limit)
        default:
            return nil
        }
    }

    /// The message to send: on message stream 0 at time 0.
    public var message: RTMPMessage {
        func number(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        return switch self {
        case let .setChunkSize(size): RTMPMessage(type: .setChunkSize, payload: number(size))
        case let .abort(chunkStream): RTMPMessage(type: .abort, payload: number(chunkStream))
        case let .acknowledgement(sequence): RTMPMessage(type: .acknowledgement, payload: number(sequence))
        case let .userControl(event): RTMPMessage(type: .userControl, payload: event.payload)
        case let .windowAcknowledgementSize(size): RTMPMessage(type: .windowAcknowledgementSize, payload: number(size))
        case let .setPeerBandwidth(size, limit): RTMPMessage(type: .setPeerBandwidth, payload: number(size) + [limit.rawValue])
        }
    }
}
