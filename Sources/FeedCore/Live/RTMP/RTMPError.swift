/// Everything that can go wrong on an RTMP connection. Most cases say what the peer did
/// wrong (a protocol violation: `invalidData`), some say it asked for more than the limits
/// allow (`tooLarge`); a refused publish is `forbidden`. Every message is one line.
///
/// After a reader or a session throws, the connection is beyond repair: close it.
public enum RTMPError: FeedFailure, Equatable {
    /// The peer's first handshake byte asked for an RTMP version other than 3 (6 is RTMPE,
    /// a letter is usually an HTTP request sent to the RTMP port).
    case unsupportedVersion(UInt8)
    /// The peer set a chunk size of 0 or of 2^31 and above (RTMP allows 1 … 0x7FFFFFFF).
    case invalidChunkSize(UInt32)
    /// A message header announced a length over the reader's limit.
    case messageTooLarge(length: Int, limit: Int)
    /// Messages begun but not finished on all chunk streams together would need more memory
    /// than the reader allows.
    case tooMuchBuffered(bytes: Int, limit: Int)
    /// A type 1, 2 or 3 chunk header on a chunk stream that never had the header it abbreviates.
    case chunkWithoutHeader(chunkStream: UInt32, format: UInt8)
    /// A type 0, 1 or 2 chunk header arrived while the chunk stream's message was unfinished.
    case headerInsideMessage(chunkStream: UInt32)
    /// A protocol control message (Set Chunk Size, Acknowledgement …) had a payload of the wrong size.
    case malformedControlMessage(type: UInt8, length: Int)
    /// AMF0 data ended in the middle of a value.
    case amf0Truncated(offset: Int)
    /// AMF0 objects or arrays nested deeper than the decoder's limit.
    case amf0TooDeep(limit: Int)
    /// An AMF0 type marker this decoder does not read (references, typed objects, AMF3 …).
    case amf0UnsupportedMarker(UInt8, offset: Int)
    /// A command message that is not a name, a transaction id and arguments, or lacks an
    /// argument its command needs.
    case malformedCommand(name: String, reason: String)
    /// A command that makes no sense now: `publish` before `connect`, a second `connect` …
    case unexpectedCommand(name: String, reason: String)
    /// The server refused the publish (`onStatus` level `error`, or `_error` to a call).
    case publishRefused(code: String, description: String)
    /// Media or metadata was handed to a client session that is not publishing (yet).
    case notPublishing
    /// A message to write is longer than RTMP's 24-bit length field holds (16 MiB - 1).
    case payloadTooLarge(length: Int)
    /// A chunk stream id outside 2 … 65599 was asked of the writer.
    case invalidChunkStream(UInt32)

    public var kind: FailureKind {
        switch self {
        case .messageTooLarge, .tooMuchBuffered, .payloadTooLarge: .tooLarge
        case .publishRefused: .forbidden
        case .notPublishing, .invalidChunkStream: .usage
        case .unsupportedVersion, .invalidChunkSize, .chunkWithoutHeader, .headerInsideMessage, .malformedControlMessage,
             .amf0Truncated, .amf0TooDeep, .amf0UnsupportedMarker, .malformedCommand, .unexpectedCommand: .invalidData
        }
    }

    public var description: String {
        switch self {
        case let .unsupportedVersion(version):
            "rtmp: the peer asked for protocol version \(version); only version 3 (plain RTMP) is spoken here"
        case let .invalidChunkSize(size):
            "rtmp: the peer set a chunk size of \(size); RTMP allows 1 to 2147483647"
        case let .messageTooLarge(length, limit):
            "rtmp: the peer announced a \(length)-byte message; the limit is \(limit) bytes"
        case let .tooMuchBuffered(bytes, limit):
            "rtmp: the peer's unfinished messages would hold \(bytes) bytes; the limit is \(limit)"
        case let .chunkWithoutHeader(chunkStream, format):
            "rtmp: a type \(format) chunk on chunk stream \(chunkStream), which has had no full header"
        case let .headerInsideMessage(chunkStream):
            "rtmp: a new message header on chunk stream \(chunkStream) before its message was complete"
        case let .malformedControlMessage(type, length):
            "rtmp: a protocol control message of type \(type) with \(length) payload bytes"
        case let .amf0Truncated(offset):
            "rtmp: AMF0 data ends in the middle of a value (byte \(offset))"
        case let .amf0TooDeep(limit):
            "rtmp: AMF0 values nest deeper than \(limit) levels"
        case let .amf0UnsupportedMarker(marker, offset):
            "rtmp: AMF0 type marker 0x\(String(marker, radix: 16)) at byte \(offset) is not supported"
        case let .malformedCommand(name, reason):
            "rtmp: malformed \(Self.shown(name)) command: \(reason)"
        case let .unexpectedCommand(name, reason):
            "rtmp: unexpected \(Self.shown(name)) command: \(reason)"
        case let .publishRefused(code, description):
            "rtmp: the server refused the publish: \(Self.shown(code)) \(Self.shown(description))"
        case .notPublishing:
            "rtmp: the session is not publishing; wait for publishStarted before sending media"
        case let .payloadTooLarge(length):
            "rtmp: a \(length)-byte message is over RTMP's limit of 16777215 bytes"
        case let .invalidChunkStream(id):
            "rtmp: chunk stream id \(id) is outside 2 to 65599"
        }
    }

    /// Text from the peer as a message shows it: short, quoted when it is not plain.
    private static func shown(_ text: String) -> String {
        let cut = text.count > 64 ? String(text.prefix(64)) + "…" : text
        let plain = !cut.isEmpty && cut.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
        return plain ? cut : String(reflecting: cut)
    }
}
