extension RTMPMessage {
    /// The messages inside an aggregate message (type 22): FLV tags back to back, each a
    /// type, a 24-bit length, a timestamp, a stream id, the body and a 4-byte back pointer.
    /// Their times keep their distance from the first tag's, counted from the aggregate's.
    ///
    /// Empty for any other type. Stops at the first tag that does not fit, with the tags
    /// before it: the body is the peer's, and a broken aggregate drops only its own tail.
    public var aggregatedMessages: [RTMPMessage] {
        guard type == .aggregate else { return [] }
        var messages: [RTMPMessage] = []
        var offset = 0
        var first: UInt32?
        while payload.count - offset >= 11 {
            let length = Int(payload[offset + 1]) << 16 | Int(payload[offset + 2]) << 8 | Int(payload[offset + 3])
            let time = UInt32(payload[offset + 7]) << 24 | UInt32(payload[offset + 4]) << 16
                | UInt32(payload[offset + 5]) << 8 | UInt32(payload[offset + 6])
            let body = offset + 11
            guard payload.count - body >= length else { break }
            let base = first ?? time
            first = base
            messages.append(RTMPMessage(type: RTMPMessageType(rawValue: payload[offset]), streamID: streamID,
                                        timestamp: timestamp &+ (time &- base), payload: Array(payload[body ..< body + length])))
            offset = min(payload.count, body + length + 4)
        }
        return messages
    }
}
