/// An RTMP message type id. Ids this code does not name are kept as they are.
public struct RTMPMessageType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The id on the wire.
    public var rawValue: UInt8

    /// The type with id `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 1: the sender's chunk size from now on.
    public static let setChunkSize = RTMPMessageType(rawValue: 1)
    /// 2: drop the unfinished message of a chunk stream.
    public static let abort = RTMPMessageType(rawValue: 2)
    /// 3: how many bytes the sender has received.
    public static let acknowledgement = RTMPMessageType(rawValue: 3)
    /// 4: stream events and pings.
    public static let userControl = RTMPMessageType(rawValue: 4)
    /// 5: after how many bytes the sender wants an acknowledgement.
    public static let windowAcknowledgementSize = RTMPMessageType(rawValue: 5)
    /// 6: how much the receiver may send before it waits for an acknowledgement.
    public static let setPeerBandwidth = RTMPMessageType(rawValue: 6)
    /// 8: an FLV audio tag's body.
    public static let audio = RTMPMessageType(rawValue: 8)
    /// 9: an FLV video tag's body.
    public static let video = RTMPMessageType(rawValue: 9)
    /// 15: a data message in AMF3 (one zero byte, then AMF0 in practice).
    public static let amf3Data = RTMPMessageType(rawValue: 15)
    /// 17: a command in AMF3 (one zero byte, then AMF0 in practice).
    public static let amf3Command = RTMPMessageType(rawValue: 17)
    /// 18: a data message in AMF0 (`@setDataFrame`, `onMetaData`).
    public static let amf0Data = RTMPMessageType(rawValue: 18)
    /// 20: a command in AMF0 (`connect`, `publish`, `_result`, `onStatus` …).
    public static let amf0Command = RTMPMessageType(rawValue: 20)
    /// 22: several FLV tags in one message.
    public static let aggregate = RTMPMessageType(rawValue: 22)

    /// Whether this is one of the protocol control types (1 … 6), which belong on chunk stream 2.
    public var isControl: Bool { (1 ... 6).contains(rawValue) }

    public var description: String { "type \(rawValue)" }
}
