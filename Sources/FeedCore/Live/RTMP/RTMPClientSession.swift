/// The publishing end of an RTMP connection, as a state machine: it makes the bytes to
/// send and reads the server's answers; the caller owns the socket.
///
/// ``start()`` gives C0 C1. Then, driven by ``receive(_:)``: C2 once S1 is in; after S2,
/// Set Chunk Size and `connect` (app, `tcUrl`, `type: nonprivate`, an FMLE `flashVer`, as
/// ffmpeg sends); after its `_result`, `releaseStream`, `FCPublish` and `createStream`; after
/// that `_result`, `publish` of the stream key (type `live`) on the stream it created. The
/// server's `onStatus` `NetStream.Publish.Start` surfaces ``RTMPClientEvent/publishStarted``;
/// from then on ``metadata(_:)`` and ``media(_:)`` encode the stream. A refusal at any step
/// surfaces ``RTMPClientEvent/refused(code:description:)``.
///
/// The session acknowledges what it receives as the server's window asks, answers pings and
/// Set Peer Bandwidth, and follows the server's chunk size for what it reads.
public struct RTMPClientSession: Sendable {
    /// Where the conversation is.
    public enum State: Sendable, Equatable {
        /// Exchanging C0 C1 / S0 S1 S2 / C2.
        case handshaking
        /// `connect` sent; waiting for its `_result`.
        case connecting
        /// `createStream` sent; waiting for the stream id.
        case creatingStream
        /// `publish` sent on `streamID`; waiting for `onStatus`.
        case awaitingPublish(streamID: UInt32)
        /// Publishing on `streamID`: metadata and media may be sent.
        case publishing(streamID: UInt32)
        /// The server refused: its code and description.
        case refused(code: String, description: String)
        /// ``RTMPClientSession/unpublish()`` was called.
        case unpublished
    }

    /// The application to connect to: the path of `rtmp://host/app/key` before the key.
    public let app: String
    /// The URL the server is told was used: `rtmp://host[:port]/app`.
    public let tcURL: String
    /// The name to publish under.
    public let streamKey: String
    /// Where the conversation is.
    public private(set) var state: State = .handshaking

    private var handshake = RTMPHandshake(role: .client)
    private var reader: RTMPChunkReader
    private var writer = RTMPChunkWriter()
    private let chunkSize: Int
    private var peerWindow = RTMPServerSession.defaultWindow
    private var lastWindowSent: UInt32?
    private var received: UInt64 = 0
    private var acknowledged: UInt64 = 0
    private var transactions: Double = 0
    private var connectTransaction: Double = 0
    private var createStreamTransaction: Double = 0

    /// A session that will publish `streamKey` to `app`, telling the server `tcURL`, with
    /// chunks of `chunkSize` bytes, refusing server messages over `maxMessageLength`.
    public init(app: String, tcURL: String, streamKey: String, chunkSize: Int = RTMPServerSession.defaultChunkSize,
                maxMessageLength: Int = RTMPChunkReader.defaultMaxMessageLength) {
        self.app = app
        self.tcURL = tcURL
        self.streamKey = streamKey
        self.chunkSize = chunkSize
        reader = RTMPChunkReader(maxMessageLength: maxMessageLength)
    }

    /// C0 and C1: the first bytes to send once connected.
    public func start() -> [UInt8] {
        handshake.start()
    }

    /// Takes bytes from the server, in any pieces; returns what to send and what happened.
    /// Throws on a handshake refusal or a protocol violation; the connection is then over.
    /// After a refusal it ignores everything.
    public mutating func receive(_ bytes: [UInt8]) throws(RTMPError) -> [RTMPClientEvent] {
        if case .refused = state { return [] }
        var events: [RTMPClientEvent] = []
        var chunkBytes = bytes
        if !handshake.isComplete {
            let step = try handshake.receive(bytes)
            events.send(step.reply)
            guard handshake.isComplete else { return events }
            state = .connecting
            events.send(writer.setChunkSize(chunkSize))
            connectTransaction = nextTransaction()
            let object = AMF0.object([.init("app", .string(app)), .init("type", .string("nonprivate")),
                                      .init("flashVer", .string("FMLE/3.0 (compatible; feed)")), .init("tcUrl", .string(tcURL))])
            send(RTMPCommand(name: "connect", transactionID: connectTransaction, object: object), to: &events)
            chunkBytes = step.remainder
        }
        received += UInt64(chunkBytes.count)
        for message in try reader.read(chunkBytes) {
            try handle(message, into: &events)
            if case .refused = state { return events }
        }
        if received - acknowledged >= UInt64(peerWindow) {
            acknowledged = received
            send(.acknowledgement(sequenceNumber: UInt32(truncatingIfNeeded: received)), to: &events)
        }
        return events
    }

    /// `@setDataFrame` `onMetaData` with `properties` (width, height, framerate, codec ids …)
    /// to send; throws ``RTMPError/notPublishing`` (or the refusal) before ``RTMPClientEvent/publishStarted``.
    public mutating func metadata(_ properties: [AMF0.Property]) throws(RTMPError) -> [UInt8] {
        try writer.write(RTMPDataMessage.setDataFrame(properties).message(streamID: try publishingStream()))
    }

    /// An audio or video message to send; throws ``RTMPError/notPublishing`` (or the
    /// refusal) before ``RTMPClientEvent/publishStarted``, and
    /// ``RTMPError/payloadTooLarge(length:)`` over 16 MiB - 1.
    public mutating func media(_ media: RTMPMediaMessage) throws(RTMPError) -> [UInt8] {
        try writer.write(media.message(streamID: try publishingStream()))
    }

    /// `FCUnpublish` and `deleteStream` to send before closing; nothing when not publishing.
    public mutating func unpublish() -> [UInt8] {
        let streamID: UInt32
        switch state {
        case let .publishing(id), let .awaitingPublish(id): streamID = id
        default: return []
        }
        state = .unpublished
        var events: [RTMPClientEvent] = []
        send(RTMPCommand(name: "FCUnpublish", transactionID: nextTransaction(), arguments: [.string(streamKey)]), to: &events)
        send(RTMPCommand(name: "deleteStream", transactionID: nextTransaction(), arguments: [.number(Double(streamID))]), to: &events)
        return events.flatMap { event -> [UInt8] in if case let .send(bytes) = event { bytes } else { [] } }
    }

    private func publishingStream() throws(RTMPError) -> UInt32 {
        switch state {
        case let .publishing(streamID): return streamID
        case let .refused(code, description): throw .publishRefused(code: code, description: description)
        default: throw .notPublishing
        }
    }

    // MARK: - Messages

    private mutating func handle(_ message: RTMPMessage, into events: inout [RTMPClientEvent]) throws(RTMPError) {
        if let command = try RTMPCommand(message) {
            handle(command, into: &events)
            return
        }
        switch try RTMPControlMessage(message) {
        case let .windowAcknowledgementSize(size)? where size > 0:
            peerWindow = size
        case let .setPeerBandwidth(size, _)? where size != lastWindowSent:
            lastWindowSent = size
            send(.windowAcknowledgementSize(size), to: &events)
        case let .userControl(.pingRequest(timestamp))?:
            send(.userControl(.pingResponse(timestamp: timestamp)), to: &events)
        default:
            break  // chunk size and abort: the reader applied them; data and media from a server: not ours
        }
    }

    private mutating func handle(_ command: RTMPCommand, into events: inout [RTMPClientEvent]) {
        let info = command.info
        let code = info?["code"]?.stringValue ?? ""
        let description = info?["description"]?.stringValue ?? ""
        let answers = command.name == "_result" || command.name == "_error"
        if answers, command.transactionID == connectTransaction, state == .connecting {
            guard command.name == "_result", info?["level"]?.stringValue != "error" else {
                refuse(code: code.isEmpty ? "NetConnection.Connect.Rejected" : code, description: description, into: &events)
                return
            }
            state = .creatingStream
            send(RTMPCommand(name: "releaseStream", transactionID: nextTransaction(), arguments: [.string(streamKey)]), to: &events)
            send(RTMPCommand(name: "FCPublish", transactionID: nextTransaction(), arguments: [.string(streamKey)]), to: &events)
            createStreamTransaction = nextTransaction()
            send(RTMPCommand(name: "createStream", transactionID: createStreamTransaction), to: &events)
        } else if answers, command.transactionID == createStreamTransaction, state == .creatingStream {
            guard command.name == "_result", let number = command.arguments.lazy.compactMap(\.numberValue).first,
                  number >= 0, number <= Double(UInt32.max) else {
                refuse(code: code.isEmpty ? "NetStream.Failed" : code,
                       description: description.isEmpty ? "createStream gave no stream id" : description, into: &events)
                return
            }
            let streamID = UInt32(number)
            state = .awaitingPublish(streamID: streamID)
            send(RTMPCommand(name: "publish", transactionID: nextTransaction(), arguments: [.string(streamKey), .string("live")]),
                 streamID: streamID, to: &events)
        } else if command.name == "onStatus" {
            if info?["level"]?.stringValue == "error" {
                refuse(code: code, description: description, into: &events)
            } else if code == "NetStream.Publish.Start", case let .awaitingPublish(streamID) = state {
                state = .publishing(streamID: streamID)
                events.append(.publishStarted)
            }
        }
        // Anything else (onBWDone, onFCPublish, the answers to releaseStream and FCPublish) needs nothing.
    }

    private mutating func refuse(code: String, description: String, into events: inout [RTMPClientEvent]) {
        state = .refused(code: code, description: description)
        events.append(.refused(code: code, description: description))
    }

    private mutating func nextTransaction() -> Double {
        transactions += 1
        return transactions
    }

    // MARK: - Sending

    private mutating func send(_ control: RTMPControlMessage, to events: inout [RTMPClientEvent]) {
        events.send(control.message, through: &writer)
    }

    private mutating func send(_ command: RTMPCommand, streamID: UInt32 = 0, to events: inout [RTMPClientEvent]) {
        events.send(command.message(streamID: streamID), through: &writer)
    }
}
