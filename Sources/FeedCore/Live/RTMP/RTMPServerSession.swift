/// The server end of an RTMP connection from a publisher (ffmpeg, OBS …), as a state
/// machine: bytes from the socket go in, bytes to write and what the publisher wants come out.
/// It does no I/O and keeps no clock.
///
/// The conversation, as ffmpeg and OBS hold it: handshake; `connect` (answered with Window
/// Acknowledgement Size, Set Peer Bandwidth, Set Chunk Size and `_result`
/// `NetConnection.Connect.Success`); `releaseStream`, `FCPublish` and `createStream` (each a
/// `_result`, the stream id 1); `publish`, which surfaces ``RTMPServerEvent/publish(app:streamKey:)``
/// and waits for the caller's ``accept()`` (User Control Stream Begin and `onStatus`
/// `NetStream.Publish.Start`) or ``reject(description:)`` (`onStatus` level `error`,
/// `NetStream.Publish.BadName`). Then metadata and media until `FCUnpublish` / `deleteStream`.
///
/// Media that arrives before ``accept()`` is dropped, not buffered: ffmpeg and OBS send none
/// before `NetStream.Publish.Start`, and frames held for an authorization of unknown length
/// would be stale and unbounded. The exception is what a decoder cannot do without and a
/// publisher sends once: the latest metadata and the audio and video sequence headers are
/// kept (one of each) and surfaced, in that order, at the start of the first ``receive(_:)``
/// after ``accept()`` (call `receive([])` to have them at once). A caller should still wait
/// for a keyframe.
///
/// Acknowledgements go out as the peer's Window Acknowledgement Size asks (2,500,000 bytes
/// until it says), pings are answered, and commands the server does not know are answered
/// with an empty `_result` when they expect an answer, so no client waits on them.
public struct RTMPServerSession: Sendable {
    /// Where the conversation is.
    public enum State: Sendable, Equatable {
        /// Reading C0 C1 C2.
        case handshaking
        /// Waiting for `connect`.
        case connecting
        /// Connected to `app`; no stream is being published.
        case connected(app: String)
        /// `publish` asked for `streamKey`; waiting for ``RTMPServerSession/accept()`` or ``RTMPServerSession/reject(description:)``.
        case awaitingAuthorization(app: String, streamKey: String)
        /// Publishing `streamKey`: metadata and media are surfaced.
        case publishing(app: String, streamKey: String)
        /// The publish of `streamKey` was rejected; everything is refused.
        case rejected(streamKey: String)
    }

    /// The chunk size the server switches to in its answer to `connect`.
    public static let defaultChunkSize = 4096
    /// The longest message taken before a publish is accepted: commands, metadata and sequence
    /// headers are a few hundred bytes, so a peer that has not shown a stream key cannot make
    /// the server hold more than twice this.
    public static let unauthorizedMessageLength = 64 << 10
    /// The window the server announces, and assumes for the peer until it announces its own.
    public static let defaultWindow: UInt32 = 2_500_000

    /// Where the conversation is.
    public private(set) var state: State = .handshaking
    private var handshake = RTMPHandshake(role: .server)
    private var reader: RTMPChunkReader
    private var writer = RTMPChunkWriter()
    private let chunkSize: Int
    private let window: UInt32
    private let maxMessageLength: Int
    private var peerWindow: UInt32
    private var lastWindowSent: UInt32?
    private var received: UInt64 = 0
    private var acknowledged: UInt64 = 0
    private var nextStreamID: UInt32 = 1
    private var publishStreamID: UInt32 = 0
    private var heldMetadata: [String: AMF0]?
    private var heldHeaders: [RTMPMediaMessage.Kind: RTMPMediaMessage] = [:]
    private var replay: [RTMPServerEvent] = []

    /// A session that switches to `chunkSize` after `connect`, announces `window` as its
    /// acknowledgement window and peer bandwidth, and refuses messages over `maxMessageLength`
    /// (over ``unauthorizedMessageLength`` until a publish is accepted).
    public init(chunkSize: Int = RTMPServerSession.defaultChunkSize, window: UInt32 = RTMPServerSession.defaultWindow,
                maxMessageLength: Int = RTMPChunkReader.defaultMaxMessageLength) {
        self.chunkSize = chunkSize
        self.window = window
        self.maxMessageLength = maxMessageLength
        peerWindow = Self.defaultWindow
        reader = RTMPChunkReader(maxMessageLength: min(maxMessageLength, Self.unauthorizedMessageLength))
    }

    /// Takes bytes from the peer, in any pieces; returns what to send and what happened.
    /// Throws on a handshake refusal or a protocol violation; the connection is then over.
    public mutating func receive(_ bytes: [UInt8]) throws(RTMPError) -> [RTMPServerEvent] {
        if case let .rejected(streamKey) = state { return [.closed(.publishRejected(streamKey: streamKey))] }
        var events: [RTMPServerEvent] = []
        var chunkBytes = bytes
        if !handshake.isComplete {
            let step = try handshake.receive(bytes)
            events.send(step.reply)
            guard handshake.isComplete else { return events }
            state = .connecting
            chunkBytes = step.remainder
        }
        events += replay
        replay = []
        received += UInt64(chunkBytes.count)
        for message in try reader.read(chunkBytes) { try handle(message, into: &events) }
        if received - acknowledged >= UInt64(peerWindow) {
            acknowledged = received
            send(.acknowledgement(sequenceNumber: UInt32(truncatingIfNeeded: received)), to: &events)
        }
        return events
    }

    /// Lets the publish waiting for authorization start: returns User Control Stream Begin
    /// and `onStatus` `NetStream.Publish.Start` to send. The metadata and sequence headers held
    /// while waiting come out of the next ``receive(_:)`` (`receive([])` gives them at once).
    /// Returns nothing when no publish waits (the peer gave it up: ``RTMPServerEvent/unpublished``
    /// came first).
    public mutating func accept() -> [UInt8] {
        guard case let .awaitingAuthorization(app, streamKey) = state else { return [] }
        state = .publishing(app: app, streamKey: streamKey)
        reader.maxMessageLength = maxMessageLength
        if let heldMetadata { replay.append(.metadata(heldMetadata)) }
        for kind in [RTMPMediaMessage.Kind.video, .audio] { if let header = heldHeaders[kind] { replay.append(.media(header)) } }
        heldMetadata = nil
        heldHeaders = [:]
        var events: [RTMPServerEvent] = []
        send(.userControl(.streamBegin(streamID: publishStreamID)), to: &events)
        send(.onStatus(level: "status", code: "NetStream.Publish.Start", description: "Start publishing", details: streamKey),
             streamID: publishStreamID, to: &events)
        return Self.bytes(of: events)
    }

    /// Refuses the publish waiting for authorization: returns `onStatus` level `error`
    /// `NetStream.Publish.BadName` with `description` to send. Write it, then close the
    /// connection: ffmpeg gives up on the status, but librtmp (and so OBS) waits for the
    /// connection to end. From now on ``receive(_:)`` ignores its bytes and returns
    /// ``RTMPServerEvent/closed(_:)``. Returns nothing when no publish waits.
    public mutating func reject(description: String = "the stream key was refused") -> [UInt8] {
        guard case let .awaitingAuthorization(_, streamKey) = state else { return [] }
        state = .rejected(streamKey: streamKey)
        heldMetadata = nil
        heldHeaders = [:]
        var events: [RTMPServerEvent] = []
        send(.onStatus(level: "error", code: "NetStream.Publish.BadName", description: description, details: streamKey),
             streamID: publishStreamID, to: &events)
        return Self.bytes(of: events)
    }

    // MARK: - Messages

    private mutating func handle(_ message: RTMPMessage, into events: inout [RTMPServerEvent]) throws(RTMPError) {
        switch message.type {
        case .amf0Command, .amf3Command:
            if let command = try RTMPCommand(message) { try handle(command, streamID: message.streamID, into: &events) }
        case .amf0Data, .amf3Data:
            // Metadata is advice: a broken data message is dropped, not a reason to end the stream.
            if let metadata = (try? RTMPDataMessage(message))?.metadata {
                let values = AMF0.ecmaArray(metadata).dictionary ?? [:]
                switch state {
                case .publishing: events.append(.metadata(values))
                case .awaitingAuthorization: heldMetadata = values
                default: break
                }
            }
        case .audio, .video:
            guard let media = RTMPMediaMessage(message) else { return }
            switch state {
            case .publishing: events.append(.media(media))
            case .awaitingAuthorization where media.isSequenceHeader: heldHeaders[media.kind] = media
            default: break
            }
        case .aggregate:
            for inner in message.aggregatedMessages where [.audio, .video, .amf0Data].contains(inner.type) {
                try handle(inner, into: &events)
            }
        default:
            if let control = try RTMPControlMessage(message) { handle(control, into: &events) }
        }
    }

    private mutating func handle(_ control: RTMPControlMessage, into events: inout [RTMPServerEvent]) {
        switch control {
        case let .windowAcknowledgementSize(size) where size > 0:
            peerWindow = size
        case let .setPeerBandwidth(size, _) where size != lastWindowSent:
            lastWindowSent = size
            send(.windowAcknowledgementSize(size), to: &events)
        case let .userControl(.pingRequest(timestamp)):
            send(.userControl(.pingResponse(timestamp: timestamp)), to: &events)
        default:
            break  // Set Chunk Size and Abort: the reader applied them; acknowledgements need nothing
        }
    }

    private mutating func handle(_ command: RTMPCommand, streamID: UInt32, into events: inout [RTMPServerEvent]) throws(RTMPError) {
        let app: String
        switch state {
        case .connecting:
            guard command.name == "connect" else { throw .unexpectedCommand(name: command.name, reason: "it came before connect") }
            try connect(command, into: &events)
            return
        case let .connected(connected), let .awaitingAuthorization(connected, _), let .publishing(connected, _):
            app = connected
        case .handshaking, .rejected:
            return
        }
        switch command.name {
        case "connect":
            throw .unexpectedCommand(name: command.name, reason: "the connection is already connected")
        case "createStream":
            send(RTMPCommand(name: "_result", transactionID: command.transactionID, arguments: [.number(Double(nextStreamID))]),
                 to: &events)
            nextStreamID &+= 1
        case "publish":
            guard case .connected = state else {
                throw .unexpectedCommand(name: command.name, reason: "a stream is already published on this connection")
            }
            guard let name = command.firstString else { throw .malformedCommand(name: command.name, reason: "it names no stream") }
            let streamKey = String(name.prefix { $0 != "?" })
            publishStreamID = streamID
            state = .awaitingAuthorization(app: app, streamKey: streamKey)
            events.append(.publish(app: app, streamKey: streamKey))
        case "FCUnpublish", "deleteStream", "closeStream":
            // deleteStream names a stream: another than the published one leaves it alone.
            if command.name == "deleteStream", let deleted = command.arguments.first?.numberValue,
               deleted != Double(publishStreamID) { return }
            unpublish(app: app, into: &events)
        case "play", "play2":
            send(.onStatus(level: "error", code: "NetStream.Play.StreamNotFound", description: "this server only takes publishers"),
                 streamID: streamID, to: &events)
        case "_result", "_error", "onStatus", "onBWDone":
            break  // answers and notices: nothing to say back
        default:  // releaseStream, FCPublish, _checkbw and anything unknown: an empty answer if one is expected
            if command.transactionID != 0 {
                send(RTMPCommand(name: "_result", transactionID: command.transactionID, arguments: [.undefined]), to: &events)
            }
        }
    }

    private mutating func connect(_ command: RTMPCommand, into events: inout [RTMPServerEvent]) throws(RTMPError) {
        guard command.object.properties != nil else { throw .malformedCommand(name: "connect", reason: "it has no command object") }
        let app = command.object["app"]?.stringValue ?? ""
        state = .connected(app: app)
        lastWindowSent = window
        send(.windowAcknowledgementSize(window), to: &events)
        send(.setPeerBandwidth(window, limit: .dynamic), to: &events)
        events.send(writer.setChunkSize(chunkSize))
        let server = AMF0.object([.init("fmsVer", .string("FMS/3,0,1,123")), .init("capabilities", .number(31))])
        let info = AMF0.object([.init("level", .string("status")), .init("code", .string("NetConnection.Connect.Success")),
                                .init("description", .string("Connection succeeded.")),
                                .init("objectEncoding", .number(command.object["objectEncoding"]?.numberValue ?? 0))])
        send(RTMPCommand(name: "_result", transactionID: command.transactionID, object: server, arguments: [info]), to: &events)
    }

    private mutating func unpublish(app: String, into events: inout [RTMPServerEvent]) {
        switch state {
        case .awaitingAuthorization, .publishing:
            state = .connected(app: app)
            heldMetadata = nil
            heldHeaders = [:]
            events.append(.unpublished)
        default:
            break
        }
    }

    // MARK: - Sending

    private mutating func send(_ control: RTMPControlMessage, to events: inout [RTMPServerEvent]) {
        events.send(control.message, through: &writer)
    }

    private mutating func send(_ command: RTMPCommand, streamID: UInt32 = 0, to events: inout [RTMPServerEvent]) {
        events.send(command.message(streamID: streamID), through: &writer)
    }

    private static func bytes(of events: [RTMPServerEvent]) -> [UInt8] {
        events.flatMap { $0.sentBytes ?? [] }
    }
}
