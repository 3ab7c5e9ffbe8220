extension RTMPMediaMessage {
    /// The AVC sequence header carrying `configuration` (an AVCDecoderConfigurationRecord):
    /// FLV's key-frame AVC tag of packet type 0.
    public static func avcSequenceHeader(_ configuration: [UInt8], timestamp: UInt32) -> RTMPMediaMessage {
        RTMPMediaMessage(kind: .video, timestamp: timestamp, payload: [0x17, 0, 0, 0, 0] + configuration)
    }

    /// An AVC frame (`nalUnits` length-prefixed, as MP4 holds them), shown `compositionOffset`
    /// milliseconds after its decoding time (24 bits, signed).
    public static func avcFrame(_ nalUnits: [UInt8], key: Bool, timestamp: UInt32, compositionOffset: Int32) -> RTMPMediaMessage {
        let offset = UInt32(bitPattern: max(-0x80_0000, min(0x7F_FFFF, compositionOffset)))
        let header: [UInt8] = [key ? 0x17 : 0x27, 1, UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
        return RTMPMediaMessage(kind: .video, timestamp: timestamp, payload: header + nalUnits)
    }

    /// The AAC sequence header carrying `configuration` (an AudioSpecificConfig). FLV's sound
    /// format byte for AAC is always 0xAF; the configuration says the real rate and channels.
    public static func aacSequenceHeader(_ configuration: [UInt8], timestamp: UInt32) -> RTMPMediaMessage {
        RTMPMediaMessage(kind: .audio, timestamp: timestamp, payload: [0xAF, 0] + configuration)
    }

    /// One raw AAC frame.
    public static func aacFrame(_ frame: [UInt8], timestamp: UInt32) -> RTMPMediaMessage {
        RTMPMediaMessage(kind: .audio, timestamp: timestamp, payload: [0xAF, 1] + frame)
    }
}
