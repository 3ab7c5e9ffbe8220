/// An audio (type 8) or video (type 9) message: the body of an FLV tag and its time.
///
/// The payload starts with the FLV tag header byte(s): for video, frame type and codec
/// (or an enhanced-RTMP packet type), then for AVC the packet type and composition time;
/// for audio, the sound format, then for AAC the packet type.
public struct RTMPMediaMessage: Sendable, Equatable {
    /// Audio or video.
    public enum Kind: Sendable, Equatable {
        /// An FLV audio tag body (message type 8).
        case audio
        /// An FLV video tag body (message type 9).
        case video
    }

    /// Audio or video.
    public var kind: Kind
    /// Milliseconds on the publisher's clock (the decoding time); wraps at 2^32.
    public var timestamp: UInt32
    /// The FLV tag body.
    public var payload: [UInt8]

    /// A message of `kind` at `timestamp`.
    public init(kind: Kind, timestamp: UInt32, payload: [UInt8]) {
        self.kind = kind
        self.timestamp = timestamp
        self.payload = payload
    }

    /// The media `message` carries; nil unless it is audio or video.
    public init?(_ message: RTMPMessage) {
        switch message.type {
        case .audio: kind = .audio
        case .video: kind = .video
        default: return nil
        }
        timestamp = message.timestamp
        payload = message.payload
    }

    /// Whether this is codec configuration rather than a frame: an AVC or HEVC sequence
    /// header (AVCDecoderConfigurationRecord …), an AAC AudioSpecificConfig, or an enhanced
    /// RTMP SequenceStart. Decoders need it before the first frame.
    public var isSequenceHeader: Bool {
        guard payload.count >= 2 else { return false }
        let first = payload[0]
        switch kind {
        case .video:
            if first & 0x80 != 0 { return first & 0x0F == 0 }  // enhanced RTMP: PacketTypeSequenceStart
            return (first & 0x0F == 7 || first & 0x0F == 12) && payload[1] == 0
        case .audio:
            if first >> 4 == 9 { return first & 0x0F == 0 }  // enhanced RTMP audio: SequenceStart
            return first >> 4 == 10 && payload[1] == 0
        }
    }

    /// Whether this is a video keyframe (FLV frame type 1), sequence headers included.
    public var isKeyframe: Bool {
        kind == .video && payload.first.map { $0 >> 4 & 0x07 == 1 } == true
    }

    /// The message carrying this media on `streamID`.
    public func message(streamID: UInt32) -> RTMPMessage {
        RTMPMessage(type: kind == .audio ? .audio : .video, streamID: streamID, timestamp: timestamp, payload: payload)
    }
}
