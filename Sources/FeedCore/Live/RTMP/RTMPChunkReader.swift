/// Turns the chunk stream a peer sends (after the handshake) back into messages: feed it
/// bytes as they arrive, in any pieces, and it returns the messages they complete.
///
/// It reads every chunk header type (0 full, 1 without stream id, 2 timestamp delta only,
/// 3 none), extended timestamps (also repeated on type 3 chunks, as ffmpeg, librtmp and
/// nginx-rtmp write them), any number of interleaved chunk streams, and applies the peer's
/// Set Chunk Size (1 … 0x7FFFFFFF) and Abort messages itself; those messages are returned
/// too. A chunk's bytes go straight into their message, so the reader keeps at most one
/// partial header besides the messages being assembled.
///
/// Memory is bounded whatever the peer claims: a message announced longer than
/// `maxMessageLength` is ``RTMPError/messageTooLarge(length:limit:)``, and the messages in
/// progress on all chunk streams together may not announce more than twice that
/// (``RTMPError/tooMuchBuffered(bytes:limit:)``). Payloads grow as bytes arrive, never from
/// an announced length. After the reader throws it stays failed: drop the connection.
public struct RTMPChunkReader: Sendable {
    /// The longest message a reader accepts unless the caller says otherwise: 8 MiB, well
    /// over a keyframe of a 1080p stream at broadcast bitrates.
    public static let defaultMaxMessageLength = 8 << 20
    /// The largest chunk size RTMP allows.
    public static let maxChunkSize = 0x7FFF_FFFF

    /// The longest message accepted (at most 16 MiB - 1); a session may raise it once the peer
    /// is trusted further (``RTMPServerSession``: once its publish is accepted). It applies to
    /// messages whose header comes after the change.
    public var maxMessageLength: Int {
        didSet { maxMessageLength = min(max(0, maxMessageLength), RTMPChunkWriter.maxPayloadLength) }
    }
    /// The peer's chunk size: 128 until it sends Set Chunk Size.
    public private(set) var chunkSize = 128

    private var streams: [UInt32: ChunkStream] = [:]
    private var header: [UInt8] = []
    private var body: (chunkStream: UInt32, remaining: Int)?
    private var announced = 0
    private var failure: RTMPError?

    /// The state a chunk stream keeps between chunks: the last header's fields and the
    /// message being assembled.
    private struct ChunkStream {
        var timestamp: UInt32 = 0
        /// The last header's timestamp field (the absolute time for type 0, as the spec has a
        /// type 3 chunk after a type 0 reuse it as its delta).
        var delta: UInt32 = 0
        var length = 0
        var type: UInt8 = 0
        var streamID: UInt32 = 0
        var extended = false
        var hasHeader = false
        var inProgress = false
        var payload: [UInt8] = []
    }

    /// A reader that refuses messages longer than `maxMessageLength` bytes (at most
    /// 16 MiB - 1, the longest RTMP's 24-bit length field can announce).
    public init(maxMessageLength: Int = RTMPChunkReader.defaultMaxMessageLength) {
        self.maxMessageLength = min(max(0, maxMessageLength), RTMPChunkWriter.maxPayloadLength)
    }

    /// The messages completed by `bytes`, in the order they completed. Throws on a protocol
    /// violation or an over-limit message; once it has thrown, every later call throws the same.
    public mutating func read(_ bytes: [UInt8]) throws(RTMPError) -> [RTMPMessage] {
        if let failure { throw failure }
        do throws(RTMPError) {
            return try consume(bytes[...])
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func consume(_ input: ArraySlice<UInt8>) throws(RTMPError) -> [RTMPMessage] {
        var messages: [RTMPMessage] = []
        var index = input.startIndex
        while true {
            if case let (chunkStream, remaining)? = body {
                guard index < input.endIndex else { break }
                let take = min(remaining, input.endIndex - index)
                streams[chunkStream]!.payload.append(contentsOf: input[index ..< index + take])
                index += take
                body = remaining == take ? nil : (chunkStream, remaining - take)
                if body == nil, let message = try finishChunk(on: chunkStream) { messages.append(message) }
                continue
            }
            let need = try headerLength()
            if header.count < need {
                guard index < input.endIndex else { break }
                let take = min(need - header.count, input.endIndex - index)
                header.append(contentsOf: input[index ..< index + take])
                index += take
                continue
            }
            if let message = try startChunk() { messages.append(message) }
            header.removeAll(keepingCapacity: true)
        }
        return messages
    }

    /// How long the header being collected is, as far as its bytes so far tell.
    private func headerLength() throws(RTMPError) -> Int {
        guard let first = header.first else { return 1 }
        let basic = Self.basicHeaderLength(first)
        guard header.count >= basic else { return basic }
        let format = first >> 6
        let length = basic + [11, 7, 3, 0][Int(format)]
        guard header.count >= length else { return length }
        let extended: Bool
        if format == 3 {
            let chunkStream = Self.chunkStreamID(header)
            guard let stream = streams[chunkStream], stream.hasHeader else {
                throw .chunkWithoutHeader(chunkStream: chunkStream, format: format)
            }
            extended = stream.extended
        } else {
            extended = Self.uint24(header, at: basic) == 0xFF_FFFF
        }
        return length + (extended ? 4 : 0)
    }

    /// Applies the complete header in `header`; returns a message when it is a zero-length one.
    private mutating func startChunk() throws(RTMPError) -> RTMPMessage? {
        let format = header[0] >> 6
        let chunkStream = Self.chunkStreamID(header)
        let basic = Self.basicHeaderLength(header[0])
        let fields = basic + [11, 7, 3, 0][Int(format)]
        var stream = streams[chunkStream] ?? ChunkStream()
        if format == 2, !stream.hasHeader { throw .chunkWithoutHeader(chunkStream: chunkStream, format: format) }
        let extendedValue = header.count > fields ? Self.uint32(header, at: fields) : 0
        if format == 3 {
            if !stream.inProgress {  // a new message just like the last one
                let delta = stream.extended ? extendedValue : stream.delta
                stream.delta = delta
                stream.timestamp &+= delta
                try begin(&stream)
            }
        } else {
            let field = Self.uint24(header, at: basic)
            let length = format <= 1 ? Int(Self.uint24(header, at: basic + 3)) : stream.length
            let type = format <= 1 ? header[basic + 6] : stream.type
            if stream.inProgress {
                // ffmpeg carries on when a full header repeats the unfinished message's length
                // and type; anything else cannot be reconciled.
                guard length == stream.length, type == stream.type else { throw .headerInsideMessage(chunkStream: chunkStream) }
            } else {
                let value = field == 0xFF_FFFF ? extendedValue : field
                stream.extended = field == 0xFF_FFFF
                stream.delta = value
                stream.timestamp = format == 0 ? value : stream.timestamp &+ value
                stream.length = length
                stream.type = type
                if format == 0 { stream.streamID = Self.uint32LittleEndian(header, at: basic + 7) }
                stream.hasHeader = true
                try begin(&stream)
            }
        }
        let size = min(chunkSize, stream.length - stream.payload.count)
        streams[chunkStream] = stream
        if size > 0 {
            body = (chunkStream, size)
            return nil
        }
        return try finishChunk(on: chunkStream)
    }

    /// Starts assembling a message of `stream.length` bytes, within the limits.
    private mutating func begin(_ stream: inout ChunkStream) throws(RTMPError) {
        guard stream.length <= maxMessageLength else { throw .messageTooLarge(length: stream.length, limit: maxMessageLength) }
        let limit = maxMessageLength * 2
        guard announced + stream.length <= limit else { throw .tooMuchBuffered(bytes: announced + stream.length, limit: limit) }
        announced += stream.length
        stream.inProgress = true
        stream.payload = []
    }

    /// After a chunk's last byte: the message, when that chunk completed it.
    private mutating func finishChunk(on chunkStream: UInt32) throws(RTMPError) -> RTMPMessage? {
        guard let stream = streams[chunkStream], stream.payload.count == stream.length else { return nil }
        let message = RTMPMessage(type: RTMPMessageType(rawValue: stream.type), streamID: stream.streamID,
                                  timestamp: stream.timestamp, payload: stream.payload)
        streams[chunkStream]!.payload = []
        streams[chunkStream]!.inProgress = false
        announced -= stream.length
        switch message.type {
        case .setChunkSize:
            guard case let .setChunkSize(size)? = try RTMPControlMessage(message) else { break }
            guard size > 0, size <= UInt32(Self.maxChunkSize) else { throw .invalidChunkSize(size) }
            chunkSize = Int(size)
        case .abort:
            guard case let .abort(aborted)? = try RTMPControlMessage(message),
                  let stream = streams[aborted], stream.inProgress else { break }
            announced -= stream.length
            streams[aborted]!.payload = []
            streams[aborted]!.inProgress = false
        default:
            break
        }
        return message
    }

    private static func basicHeaderLength(_ first: UInt8) -> Int {
        switch first & 0x3F {
        case 0: 2
        case 1: 3
        default: 1
        }
    }

    /// The chunk stream id of the basic header at the start of `header` (complete).
    private static func chunkStreamID(_ header: [UInt8]) -> UInt32 {
        switch header[0] & 0x3F {
        case 0: 64 + UInt32(header[1])
        case 1: 64 + UInt32(header[1]) + UInt32(header[2]) << 8
        case let id: UInt32(id)
        }
    }

    private static func uint24(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        uint24(bytes, at: offset) << 8 | UInt32(bytes[offset + 3])
    }

    private static func uint32LittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
