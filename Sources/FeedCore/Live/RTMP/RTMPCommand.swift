/// A command message (type 20, or 17 with its leading AMF3 format byte): a name, a
/// transaction id, a command object and arguments, all AMF0.
///
/// `connect`, `createStream`, `publish` go one way; `_result`, `_error` and `onStatus`
/// answer. A transaction id of 0 asks no answer.
public struct RTMPCommand: Sendable, Equatable {
    /// The command's name: `connect`, `publish`, `_result`, `onStatus` …
    public var name: String
    /// Pairs an answer with its call; 0 for commands that expect none.
    public var transactionID: Double
    /// The command object (`connect`'s properties, `_result`'s server info); `.null` for most.
    public var object: AMF0
    /// The values after the command object: `publish`'s name and type, `onStatus`'s info …
    public var arguments: [AMF0]

    /// A command named `name`.
    public init(name: String, transactionID: Double, object: AMF0 = .null, arguments: [AMF0] = []) {
        self.name = name
        self.transactionID = transactionID
        self.object = object
        self.arguments = arguments
    }

    /// The command `message` carries; nil when it is not a command message. Throws when the
    /// payload is not AMF0 or does not start with the command's name.
    public init?(_ message: RTMPMessage) throws(RTMPError) {
        guard let values = try Self.values(of: message, types: [.amf0Command, .amf3Command]) else { return nil }
        guard case let .string(name)? = values.first else {
            throw .malformedCommand(name: "", reason: "the message does not start with a command name")
        }
        self.name = name
        // Some clients leave out the transaction id of a notification; it is then 0.
        transactionID = values.count > 1 ? values[1].numberValue ?? 0 : 0
        object = values.count > 2 ? values[2] : .null
        arguments = values.count > 3 ? Array(values[3...]) : []
    }

    /// The AMF0 values of a message of one of `types`, after the zero format byte an AMF3
    /// message (15, 17) starts with; nil for other types.
    static func values(of message: RTMPMessage, types: Set<RTMPMessageType>) throws(RTMPError) -> [AMF0]? {
        guard types.contains(message.type) else { return nil }
        var payload = message.payload[...]
        if message.type == .amf3Command || message.type == .amf3Data, payload.first == 0 { payload = payload.dropFirst() }
        return try AMF0Decoder.decodeAll(payload)
    }

    /// The first argument as text (`publish`'s name, `FCPublish`'s key …).
    public var firstString: String? { arguments.first?.stringValue }

    /// The message carrying this command on `streamID` (0 for the connection's own commands).
    public func message(streamID: UInt32 = 0) -> RTMPMessage {
        RTMPMessage(type: .amf0Command, streamID: streamID,
                    payload: AMF0Encoder.encode([.string(name), .number(transactionID), object] + arguments))
    }

    /// An `onStatus` notification: level `status` or `error`, a code such as
    /// `NetStream.Publish.Start`, and a description.
    public static func onStatus(level: String, code: String, description: String, details: String? = nil) -> RTMPCommand {
        var info = [AMF0.Property("level", .string(level)), AMF0.Property("code", .string(code)),
                    AMF0.Property("description", .string(description))]
        if let details { info.append(AMF0.Property("details", .string(details))) }
        return RTMPCommand(name: "onStatus", transactionID: 0, arguments: [.object(info)])
    }

    /// The info object of an `onStatus`, `_result` or `_error`: the first object among the
    /// arguments, or the command object.
    public var info: AMF0? {
        arguments.first { $0.properties != nil } ?? (object.properties != nil ? object : nil)
    }
}
