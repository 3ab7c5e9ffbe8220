/// A data message (type 18, or 15 with its leading AMF3 format byte): AMF0 values, most
/// often a stream's metadata as `@setDataFrame`, `onMetaData`, then an ECMA array.
public struct RTMPDataMessage: Sendable, Equatable {
    /// The values, in order.
    public var values: [AMF0]

    /// A data message of `values`.
    public init(values: [AMF0]) {
        self.values = values
    }

    /// The data `message` carries; nil when it is not a data message. Throws when its
    /// payload is not AMF0.
    public init?(_ message: RTMPMessage) throws(RTMPError) {
        guard let values = try RTMPCommand.values(of: message, types: [.amf0Data, .amf3Data]) else { return nil }
        self.values = values
    }

    /// `@setDataFrame`, `onMetaData` and the metadata, as a publisher sends it (ffmpeg, OBS).
    public static func setDataFrame(_ metadata: [AMF0.Property]) -> RTMPDataMessage {
        RTMPDataMessage(values: [.string("@setDataFrame"), .string("onMetaData"), .ecmaArray(metadata)])
    }

    /// The metadata, when this is `onMetaData` (with or without `@setDataFrame` before it)
    /// followed by an ECMA array or an object; nil otherwise.
    public var metadata: [AMF0.Property]? {
        var values = values[...]
        if values.first?.stringValue == "@setDataFrame" { values = values.dropFirst() }
        guard values.first?.stringValue == "onMetaData" else { return nil }
        return values.dropFirst().first?.properties
    }

    /// The message carrying these values on `streamID` at `timestamp`.
    public func message(streamID: UInt32, timestamp: UInt32 = 0) -> RTMPMessage {
        RTMPMessage(type: .amf0Data, streamID: streamID, timestamp: timestamp, payload: AMF0Encoder.encode(values))
    }
}
