@testable import FeedCore

/// A seeded generator (SplitMix64), so a failing random input is replayed from its seed.
struct RTMPSeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A hand-driven publisher for server tests: its own handshake, writer and reader, so a test
/// sends exactly the messages it wants and reads back what the server said.
struct RTMPTestPublisher {
    var writer = RTMPChunkWriter()
    var reader = RTMPChunkReader()
    var handshake = RTMPHandshake(role: .client)
    var transaction: Double = 0

    /// Handshakes with `server`; returns the events of the last step (none expected).
    mutating func handshake(with server: inout RTMPServerSession) throws -> [RTMPServerEvent] {
        let s0s1s2 = try Self.sent(server.receive(handshake.start()))
        let step = try handshake.receive(s0s1s2)
        return try server.receive(step.reply)
    }

    /// The command named `name` (with the next transaction id unless `transaction` is given) as bytes.
    mutating func command(_ name: String, object: AMF0 = .null, _ arguments: [AMF0] = [], streamID: UInt32 = 0,
                          transaction: Double? = nil) throws -> [UInt8] {
        self.transaction += 1
        let command = RTMPCommand(name: name, transactionID: transaction ?? self.transaction, object: object, arguments: arguments)
        return try writer.write(command.message(streamID: streamID))
    }

    /// The messages the server sent in `events`.
    mutating func messages(in events: [RTMPServerEvent]) throws -> [RTMPMessage] {
        try reader.read(Self.sent(events))
    }

    /// The commands the server sent in `events`.
    mutating func commands(in events: [RTMPServerEvent]) throws -> [RTMPCommand] {
        try messages(in: events).compactMap { try RTMPCommand($0) }
    }

    /// Connects to `app` the way ffmpeg does, through `createStream`; the server's events.
    mutating func connect(_ server: inout RTMPServerSession, app: String = "live") throws -> [RTMPServerEvent] {
        _ = try handshake(with: &server)
        let object = AMF0.object([.init("app", .string(app)), .init("type", .string("nonprivate")),
                                  .init("tcUrl", .string("rtmp://127.0.0.1/\(app)"))])
        var events = try server.receive(command("connect", object: object))
        events += try server.receive(command("releaseStream", [.string("KEY")]) + command("FCPublish", [.string("KEY")])
            + command("createStream"))
        return events
    }

    /// Every byte of the `.send` events, in order.
    static func sent(_ events: [RTMPServerEvent]) -> [UInt8] {
        events.flatMap { event -> [UInt8] in if case let .send(bytes) = event { bytes } else { [] } }
    }

    /// The media of `events`.
    static func media(_ events: [RTMPServerEvent]) -> [RTMPMediaMessage] {
        events.compactMap { event in if case let .media(media) = event { media } else { nil } }
    }

    /// `events` without the `.send`s.
    static func happenings(_ events: [RTMPServerEvent]) -> [RTMPServerEvent] {
        events.filter { event in if case .send = event { false } else { true } }
    }
}

/// Media payloads as ffmpeg's FLV muxer makes them.
enum RTMPTestMedia {
    /// An AVC sequence header (keyframe, AVC, packet type 0).
    static let avcHeader: [UInt8] = [0x17, 0x00, 0, 0, 0, 0x01, 0x64, 0x00, 0x1F, 0xFF]
    /// An AAC sequence header (AAC 44.1 kHz stereo, packet type 0, AudioSpecificConfig).
    static let aacHeader: [UInt8] = [0xAF, 0x00, 0x12, 0x10]

    /// An AVC frame: a keyframe or an inter frame.
    static func avcFrame(keyframe: Bool, size: Int = 300) -> [UInt8] {
        [keyframe ? 0x17 : 0x27, 0x01, 0, 0, 0] + [UInt8](repeating: 0xAB, count: size)
    }

    /// An AAC raw frame.
    static let aacFrame: [UInt8] = [0xAF, 0x01] + [UInt8](repeating: 0x21, count: 20)
}
