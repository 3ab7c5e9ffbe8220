/// One RTMP message: what the chunk stream carries once its chunks are put back together.
public struct RTMPMessage: Sendable, Equatable {
    /// What the payload is (audio, video, a command …).
    public var type: RTMPMessageType
    /// The message stream it belongs to: 0 for the connection's own messages, the id
    /// `createStream` gave for a stream's (1 here).
    public var streamID: UInt32
    /// Milliseconds on the sender's clock; wraps at 2^32 (49.7 days).
    public var timestamp: UInt32
    /// The message's bytes.
    public var payload: [UInt8]

    /// A message of `type` on `streamID` at `timestamp`.
    public init(type: RTMPMessageType, streamID: UInt32 = 0, timestamp: UInt32 = 0, payload: [UInt8]) {
        self.type = type
        self.streamID = streamID
        self.timestamp = timestamp
        self.payload = payload
    }
}
