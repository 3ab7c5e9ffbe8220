/// What an ``RTMPClientSession`` asks of its caller after bytes arrive, in the order given.
public enum RTMPClientEvent: Sendable, Equatable {
    /// Bytes to write to the server, in order with every other write.
    case send([UInt8])
    /// The server answered `publish` with `NetStream.Publish.Start`: send metadata and media.
    case publishStarted
    /// The server refused the connection, the stream or the publish (`_error`, or `onStatus`
    /// level `error`): its code (`NetStream.Publish.BadName` …) and description. Close the
    /// connection; the session sends nothing more.
    case refused(code: String, description: String)
}
