/// RTMP's plain handshake, for either end: C0 C1 C2 from the client, S0 S1 S2 from the server.
///
/// This is the simple handshake of the RTMP 1.0 specification: version byte 3, then 1536
/// bytes of time, four zero bytes and random data, each side echoing the other's. A server
/// answers C0 C1 with S0 S1 and S2 = C1 at once, as nginx-rtmp does for plain clients;
/// ffmpeg and OBS (librtmp) see S1's zero version field and skip the digest (FP9) check.
/// The echo that comes back (C2, S2) is not checked: ffmpeg's server only warns about it.
///
/// Feed bytes as they arrive to ``receive(_:)``; send what it returns; once ``isComplete``,
/// the bytes it handed back as `remainder` begin the chunk stream.
public struct RTMPHandshake: Sendable {
    /// Which end of the connection this is.
    public enum Role: Sendable {
        /// The end that accepted the connection: waits for C0 C1, answers S0 S1 S2, reads C2.
        case server
        /// The end that connected: sends C0 C1 (``start()``), answers S1 with C2, reads S2.
        case client
    }

    /// What one call to ``receive(_:)`` produced.
    public struct Step: Sendable, Equatable {
        /// Bytes to send to the peer now (empty when there is nothing to send).
        public var reply: [UInt8]
        /// The bytes after the handshake, once it is complete: the start of the chunk stream.
        public var remainder: [UInt8]
    }

    /// The only protocol version spoken: plain RTMP.
    public static let version: UInt8 = 3
    /// The length of C1, C2, S1 and S2.
    public static let packetLength = 1536

    /// Which end this is.
    public let role: Role
    /// Whether both packets from the peer have arrived.
    public private(set) var isComplete = false
    private let own: [UInt8]
    private var buffer: [UInt8] = []
    private var answered = false

    /// A handshake for `role`; `epoch` is the time field of the packet this side sends
    /// (milliseconds on any clock; peers ignore it).
    public init(role: Role, epoch: UInt32 = 0) {
        self.role = role
        var packet = [UInt8](repeating: 0, count: Self.packetLength)
        for index in 0 ..< 4 { packet[index] = UInt8(truncatingIfNeeded: epoch >> UInt32(24 - 8 * index)) }
        var generator = SystemRandomNumberGenerator()
        var index = 8
        while index < Self.packetLength {  // bytes 4 … 7 stay zero: no digest, plain handshake
            let random = generator.next() as UInt64
            for shift in 0 ..< 8 where index + shift < Self.packetLength {
                packet[index + shift] = UInt8(truncatingIfNeeded: random >> UInt64(8 * shift))
            }
            index += 8
        }
        own = packet
    }

    /// C0 and C1 for a client to send first; nothing for a server, which speaks second.
    public func start() -> [UInt8] {
        role == .client ? [Self.version] + own : []
    }

    /// Takes bytes from the peer. Throws ``RTMPError/unsupportedVersion(_:)`` as soon as the
    /// peer's version byte is not 3. After completion, further bytes come back as remainder.
    public mutating func receive(_ bytes: [UInt8]) throws(RTMPError) -> Step {
        guard !isComplete else { return Step(reply: [], remainder: bytes) }
        buffer += bytes
        if let version = buffer.first, version != Self.version { throw .unsupportedVersion(version) }
        var reply: [UInt8] = []
        let first = 1 + Self.packetLength  // C0 C1 or S0 S1
        if !answered, buffer.count >= first {
            answered = true
            switch role {
            case .server: reply = [Self.version] + own + buffer[1 ..< first]  // S0 S1 S2 (= C1)
            case .client: reply = Array(buffer[1 ..< first])  // C2 = S1
            }
        }
        let whole = first + Self.packetLength  // and C2 or S2
        guard buffer.count >= whole else { return Step(reply: reply, remainder: []) }
        isComplete = true
        let remainder = Array(buffer[whole...])
        buffer = []
        return Step(reply: reply, remainder: remainder)
    }
}
