import FeedCore
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer entry point for feed's RTMP ingest (pure Swift, no I/O): `feed serve --rtmp-port`
/// runs ``RTMPServerSession`` on every byte a publisher sends, before the stream key is
/// checked, so a trap here would end the server for everyone.
///
/// The first three bytes are a plan (``RTMPFuzzPlan``), the rest the body:
/// - **session**: a complete handshake (C0 C1 C2) the harness builds, then (as the plan says)
///   `connect`, or `connect` … `createStream` and `publish` from the harness's own writer, then
///   the body, all fed to an ``RTMPServerSession`` in pieces of the plan's two lengths, in turn;
///   a publish is accepted at once, accepted a piece later, rejected or left waiting. (Plan mode
///   0 feeds the body as it is, handshake included.)
/// - **reader**: a Set Chunk Size to a small or odd size (1, 2, 3, 7, 127, 129, 4095; or none:
///   128), then the body, through an ``RTMPChunkReader`` with a small message cap, in the plan's
///   pieces and in one go.
/// - **AMF0**: the body through ``AMF0Decoder`` (`decodeAll`, and value by value at a small
///   depth limit); the body as a user control event and as an aggregate message.
///
/// A crash, a trap, an ASan/LSan report or a libFuzzer timeout is a finding; so is a broken
/// invariant, which traps on purpose:
/// - the session: S0 S1 S2 (3073 bytes, version 3, S1's zero field zero, S2 = C1) come back for
///   the handshake, and everything it sends after them reads back as chunks and commands (the
///   harness's own client reader); no two `.send` events follow each other and none is empty;
///   `.publish` comes only when a connected session asks for one, and names a key without `?`;
///   metadata and media come only while publishing; `accept()` and `reject()` say something
///   exactly when a publish waits, and after a reject every call returns exactly `.closed`;
///   `state` agrees with the events; every error is one line;
/// - the reader: no message is longer than its cap (nor than 16 MiB - 1); the chunk size stays
///   in 1 … 2^31 - 1; an error is sticky (every later call, even with no bytes, throws the same);
///   the pieces change nothing (same messages, or the same error, as one call); what it read,
///   written back by ``RTMPChunkWriter`` (control types 1 and 2 aside), reads back the same;
/// - AMF0: what decodes encodes and decodes again to the same bytes (`encode ∘ decode` is
///   stable after one round, whatever the input: U+FFFD for bad UTF-8, names cut at 65535
///   bytes); errors name an offset inside the bytes; value-by-value decoding agrees with
///   `decodeAll`; a user control event's payload parses back to the same event; an aggregate's
///   messages fit inside it.
///
/// Reproduce a finding with `RTMP_FUZZ_VERBOSE=1 .build-fuzz/rtmp-fuzz FILE`: the harness then
/// says what each call returned.
@_cdecl("LLVMFuzzerTestOneInput")
public func rtmpFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let plan = RTMPFuzzPlan(input)
    fuzzSession(plan)
    fuzzChunkReader(plan)
    fuzzAMF0(plan.body)
    fuzzSmallMessages(plan.body)
    return 0
}

/// What the first three bytes of an input ask for.
///
/// Byte 0: bits 0–1 the prefix (0 none: the body is the whole conversation, handshake included;
/// 1 the handshake; 2 and `connect`; 3 and `releaseStream`, `FCPublish`, `createStream` and
/// `publish` of `KEY?token=1` on stream 1); bits 2–3 what happens to a publish (0 accepted at
/// once, 1 accepted after the next piece, 2 rejected, 3 left waiting); bits 4–6 the reader's
/// chunk size (``RTMPFuzzPlan/chunkSizes``: index 0 sends no Set Chunk Size); bit 7 unused.
/// Byte 1: bits 0–5 the first piece length - 1 (1 … 64), bits 6–7 the message cap
/// (``RTMPFuzzPlan/messageCaps``; the session's is at least 256). Byte 2: the second piece
/// length, 4 × byte + 1 (1 … 1021).
struct RTMPFuzzPlan {
    enum Decision { case accept, acceptLater, reject, wait }

    static let chunkSizes = [128, 1, 2, 3, 7, 127, 129, 4095]
    static let messageCaps = [4, 200, 4096, 65_536]

    let prefix: Int
    let decision: Decision
    let chunkSize: Int
    let messageCap: Int
    let pieceLengths: (Int, Int)
    let body: [UInt8]

    init(_ input: [UInt8]) {
        func byte(_ index: Int) -> Int { index < input.count ? Int(input[index]) : 0 }
        prefix = byte(0) & 3
        decision = [Decision.accept, .acceptLater, .reject, .wait][byte(0) >> 2 & 3]
        chunkSize = Self.chunkSizes[byte(0) >> 4 & 7]
        messageCap = Self.messageCaps[byte(1) >> 6]
        pieceLengths = ((byte(1) & 0x3F) + 1, byte(2) * 4 + 1)
        body = Array(input.dropFirst(3))
    }

    /// `bytes` cut into pieces of the two lengths, in turn.
    func pieces(_ bytes: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0, turn = 0
        while start < bytes.count {
            let end = min(bytes.count, start + (turn % 2 == 0 ? pieceLengths.0 : pieceLengths.1))
            pieces.append(Array(bytes[start ..< end]))
            start = end
            turn += 1
        }
        return pieces
    }
}

// MARK: - The session

/// C1 and C2 as a client would send them (time 0, zero, then a pattern).
let handshakePacket: [UInt8] = (0 ..< RTMPHandshake.packetLength).map { $0 < 8 ? 0 : UInt8(truncatingIfNeeded: $0 &* 7) }

/// The chunks of the commands of prefix `level` (2: connect; 3: … publish), as ffmpeg sends them.
func commandPrefix(level: Int) -> [UInt8] {
    guard level >= 2 else { return [] }
    var writer = RTMPChunkWriter()
    func chunks(_ name: String, _ transaction: Double, object: AMF0 = .null, _ arguments: [AMF0] = [], streamID: UInt32 = 0) -> [UInt8] {
        let command = RTMPCommand(name: name, transactionID: transaction, object: object, arguments: arguments)
        do { return try writer.write(command.message(streamID: streamID)) } catch { fatalError("harness: \(error)") }
    }
    var bytes = chunks("connect", 1, object: .object([.init("app", .string("live")), .init("type", .string("nonprivate")),
                                                        .init("tcUrl", .string("rtmp://127.0.0.1/live"))]))
    guard level >= 3 else { return bytes }
    bytes += chunks("releaseStream", 2, [.string("KEY")]) + chunks("FCPublish", 3, [.string("KEY")]) + chunks("createStream", 4)
    bytes += chunks("publish", 5, [.string("KEY?token=1"), .string("live")], streamID: 1)
    return bytes
}

let commandPrefixes = (0 ... 3).map(commandPrefix)

func fuzzSession(_ plan: RTMPFuzzPlan) {
    var session = RTMPServerSession(maxMessageLength: max(plan.messageCap, 256))
    let handshake = plan.prefix == 0 ? [] : [RTMPHandshake.version] + handshakePacket + handshakePacket
    var checker = SessionChecker(c1: Array((plan.prefix == 0 ? plan.body : handshake).dropFirst().prefix(RTMPHandshake.packetLength)))
    var pieces = handshake.isEmpty ? [] : [handshake]
    pieces += plan.pieces(commandPrefixes[plan.prefix] + plan.body)
    var acceptAfterNext = false
    for piece in pieces + [[]] {  // an empty call at the end: what was held comes out of it once accepted
        let before = session.state
        let events: [RTMPServerEvent]
        do {
            events = try session.receive(piece)
        } catch {
            say("session: \(piece.count) bytes in \(before): \(error)")
            requireOneLine(error.description)
            return  // the connection is over
        }
        say("session: \(piece.count) bytes in \(before): \(events.map(describe)) -> \(session.state)")
        checker.check(events, before: before, after: session.state)
        if acceptAfterNext {
            acceptAfterNext = false
            checker.decided(&session, accept: true)
        }
        guard events.contains(where: { if case .publish = $0 { true } else { false } }) else { continue }
        switch plan.decision {
        case .accept: checker.decided(&session, accept: true)
        case .acceptLater: acceptAfterNext = true
        case .reject: checker.decided(&session, accept: false)
        case .wait: break
        }
    }
}

/// Follows a session through its events and reads the bytes it sends as its peer would.
struct SessionChecker {
    /// The C1 the session was sent, which its S2 must echo.
    let c1: [UInt8]
    var handshakeReply: [UInt8] = []
    var client = RTMPChunkReader(maxMessageLength: RTMPChunkWriter.maxPayloadLength)
    var rejectedKey: String?

    init(c1: [UInt8]) { self.c1 = c1 }

    mutating func check(_ events: [RTMPServerEvent], before: RTMPServerSession.State, after: RTMPServerSession.State) {
        if let rejectedKey {
            require(events == [.closed(.publishRejected(streamKey: rejectedKey))], "a rejected session returned \(events)")
            return
        }
        var publishing = { if case .publishing = before { true } else { false } }()
        var awaiting = { if case .awaitingAuthorization = before { true } else { false } }()
        var previousWasSend = false
        for event in events {
            switch event {
            case let .send(bytes):
                require(!bytes.isEmpty && !previousWasSend, "an empty .send, or two in a row")
                read(bytes)
            case let .publish(_, streamKey):
                require(!publishing && !awaiting, ".publish while \(before)")
                require(!streamKey.contains("?"), "stream key \(streamKey.debugDescription)")
                awaiting = true
            case .metadata, .media:
                require(publishing, "\(event) while not publishing (\(before))")
            case .unpublished:
                require(publishing || awaiting, ".unpublished while \(before)")
                publishing = false
                awaiting = false
            case .closed:
                require(false, ".closed before a reject")
            }
            previousWasSend = { if case .send = event { true } else { false } }()
        }
        switch after {
        case .publishing: require(publishing && !awaiting, "publishing without a publish")
        case .awaitingAuthorization: require(awaiting && !publishing, "awaiting authorization without .publish")
        case .connected, .connecting, .handshaking: require(!awaiting && !publishing, "\(after) after a publish began")
        case .rejected: require(false, "rejected without a reject")
        }
    }

    /// Accepts or rejects the publish, if one waits, and checks what that sends.
    mutating func decided(_ session: inout RTMPServerSession, accept: Bool) {
        let waiting: String? = if case let .awaitingAuthorization(_, key) = session.state { key } else { nil }
        let bytes = accept ? session.accept() : session.reject(description: "refused by the fuzzer")
        guard let waiting else {
            require(bytes.isEmpty, "accept or reject with no publish waiting sent \(bytes.count) bytes")
            return
        }
        require(!bytes.isEmpty, "accept or reject of a waiting publish sent nothing")
        read(bytes)
        switch session.state {
        case let .publishing(_, key) where accept: require(key == waiting, "accepted \(key), waiting was \(waiting)")
        case let .rejected(key) where !accept: require(key == waiting, "rejected \(key), waiting was \(waiting)")
        default: require(false, "\(accept ? "accepted" : "rejected") into \(session.state)")
        }
        if !accept { rejectedKey = waiting }
    }

    /// Reads what the server sent as its peer would: S0 S1 S2, then chunks, then commands.
    mutating func read(_ bytes: [UInt8]) {
        var bytes = bytes[...]
        let length = 1 + 2 * RTMPHandshake.packetLength
        if handshakeReply.count < length {
            let take = min(length - handshakeReply.count, bytes.count)
            handshakeReply += bytes.prefix(take)
            bytes = bytes.dropFirst(take)
            if handshakeReply.count == length {
                require(handshakeReply[0] == RTMPHandshake.version, "S0 is \(handshakeReply[0])")
                require(handshakeReply[5 ..< 9].allSatisfy { $0 == 0 }, "S1's zero field is not zero: a digest handshake")
                require(Array(handshakeReply.suffix(RTMPHandshake.packetLength)) == c1, "S2 is not C1")
            }
        }
        guard !bytes.isEmpty else { return }
        do {
            for message in try client.read(Array(bytes)) { _ = try RTMPCommand(message) }
        } catch {
            require(false, "the server sent what its own reader refuses: \(error)")
        }
    }
}

// MARK: - The chunk reader

func fuzzChunkReader(_ plan: RTMPFuzzPlan) {
    var writer = RTMPChunkWriter()
    let stream = (plan.chunkSize == writer.chunkSize ? [] : writer.setChunkSize(plan.chunkSize)) + plan.body

    var whole = RTMPChunkReader(maxMessageLength: plan.messageCap)
    var expected: [RTMPMessage] = [], expectedFailure: RTMPError?
    do { expected = try whole.read(stream) } catch { expectedFailure = error }
    say("reader at chunk size \(plan.chunkSize), cap \(plan.messageCap): \(expected.count) messages "
        + "(\(expected.map(\.type.rawValue))), \(expectedFailure.map(String.init(describing:)) ?? "no error")")
    check(expected, failure: expectedFailure, reader: whole)

    var pieced = RTMPChunkReader(maxMessageLength: plan.messageCap)
    var messages: [RTMPMessage] = [], failure: RTMPError?
    for piece in plan.pieces(stream) {
        do {
            messages += try pieced.read(piece)
        } catch {
            failure = error
            break
        }
    }
    require(failure == expectedFailure, "in pieces: \(failure.map(String.init(describing:)) ?? "no error"); "
        + "in one go: \(expectedFailure.map(String.init(describing:)) ?? "no error")")
    guard failure == nil else { return check([], failure: failure, reader: pieced) }
    require(messages == expected, "in pieces: \(messages.count) messages; in one go: \(expected.count)")
    check(messages, failure: nil, reader: pieced)
    roundTrip(messages)
}

/// The reader's promises after a call that returned `messages` or threw `failure`.
func check(_ messages: [RTMPMessage], failure: RTMPError?, reader: RTMPChunkReader) {
    var reader = reader
    require((1 ... RTMPChunkReader.maxChunkSize).contains(reader.chunkSize), "chunk size \(reader.chunkSize)")
    for message in messages {
        require(message.payload.count <= reader.maxMessageLength && message.payload.count <= RTMPChunkWriter.maxPayloadLength,
                "a \(message.payload.count)-byte message past the cap of \(reader.maxMessageLength)")
    }
    guard let failure else { return }
    requireOneLine(failure.description)
    for more: [UInt8] in [[], [0x02], [UInt8](repeating: 0xC3, count: 300)] {
        do {
            let read = try reader.read(more)
            require(false, "a failed reader read \(read.count) more messages")
        } catch {
            require(error == failure, "the error changed from \(failure) to \(error)")
        }
    }
}

/// The messages, written back by the writer, read back the same (Set Chunk Size and Abort
/// aside: written as plain messages they would change the reader, not the writer).
func roundTrip(_ messages: [RTMPMessage]) {
    let kept = messages.filter { $0.type != .setChunkSize && $0.type != .abort }
    guard !kept.isEmpty else { return }
    var writer = RTMPChunkWriter()
    var bytes = writer.setChunkSize(kept.count % 2 == 0 ? 60 : 1000)
    do {
        for message in kept { bytes += try writer.write(message) }
    } catch {
        require(false, "the writer refused a message the reader read: \(error)")
    }
    var reader = RTMPChunkReader(maxMessageLength: RTMPChunkWriter.maxPayloadLength)
    do {
        let read = try reader.read(bytes).filter { $0.type != .setChunkSize }
        require(read == kept, "written back and read again: \(read.count) messages of \(kept.count)")
    } catch {
        require(false, "the reader refused what the writer wrote: \(error)")
    }
}

// MARK: - AMF0 and small messages

func fuzzAMF0(_ bytes: [UInt8]) {
    let all: [AMF0]
    do {
        all = try AMF0Decoder.decodeAll(bytes)
    } catch {
        say("AMF0: \(error)")
        checkAMF0Error(error, count: bytes.count)
        all = []
    }
    if !all.isEmpty { say("AMF0: \(all.count) values") }
    // Value by value, at a depth limit of 3: agrees with decodeAll where both succeed.
    var decoder = AMF0Decoder(bytes, maxDepth: 3)
    var values: [AMF0] = []
    while !decoder.isAtEnd {
        let offset = decoder.offset
        do {
            values.append(try decoder.decode())
            require(decoder.offset > offset && decoder.offset <= bytes.count, "offset \(offset) to \(decoder.offset)")
        } catch {
            checkAMF0Error(error, count: bytes.count)
            break
        }
    }
    if decoder.isAtEnd, !all.isEmpty {
        require(AMF0Encoder.encode(values) == AMF0Encoder.encode(all), "value by value differs from decodeAll")
    }
    guard !all.isEmpty else { return }
    let once = AMF0Encoder.encode(all)
    do {
        let twice = AMF0Encoder.encode(try AMF0Decoder.decodeAll(once))
        require(twice == once, "encode(decode) is not stable: \(once.count) then \(twice.count) bytes")
    } catch {
        require(false, "what the encoder wrote does not decode: \(error)")
    }
}

func checkAMF0Error(_ error: RTMPError, count: Int) {
    requireOneLine(error.description)
    switch error {
    case let .amf0Truncated(offset): require(offset >= 0 && offset <= count, "truncated at \(offset) of \(count)")
    case let .amf0UnsupportedMarker(_, offset): require(offset >= 0 && offset < count, "marker at \(offset) of \(count)")
    case .amf0TooDeep: break
    default: require(false, "AMF0 threw \(error)")
    }
}

func fuzzSmallMessages(_ bytes: [UInt8]) {
    if let event = RTMPUserControlEvent(payload: bytes) {
        require(RTMPUserControlEvent(payload: event.payload) == event, "user control \(event) does not read back")
    }
    let aggregate = RTMPMessage(type: .aggregate, streamID: 1, timestamp: 1000, payload: bytes)
    var total = 0
    for inner in aggregate.aggregatedMessages {
        total += 11 + inner.payload.count
        require(inner.streamID == 1, "an inner message on stream \(inner.streamID)")
    }
    require(total <= bytes.count, "aggregated messages of \(total) bytes in \(bytes.count)")
    for type in [RTMPMessageType.amf0Command, .amf3Command, .amf0Data] {
        let message = RTMPMessage(type: type, payload: bytes)
        do {
            _ = try RTMPCommand(message)
            _ = try RTMPDataMessage(message)?.metadata
        } catch {
            requireOneLine(error.description)
        }
    }
}

// MARK: - Invariants

let verbose = getenv("RTMP_FUZZ_VERBOSE") != nil

/// Writes `line` to stderr when RTMP_FUZZ_VERBOSE is set.
func say(_ line: @autoclosure () -> String) {
    guard verbose else { return }
    let text = Array((line() + "\n").utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// An event, short: the bytes of a `.send` counted, not listed.
func describe(_ event: RTMPServerEvent) -> String {
    switch event {
    case let .send(bytes): "send(\(bytes.count))"
    case let .media(media): "media(\(media.kind), \(media.timestamp), \(media.payload.count) bytes)"
    default: "\(event)"
    }
}

/// Traps with `message` unless `condition` holds: a broken invariant is a finding.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant: \(message())") }
}

/// Every error message is one line.
func requireOneLine(_ text: String) {
    require(!text.isEmpty && !text.contains("\n"), "error text: \(text.debugDescription)")
}
