/// What an ``RTMPServerSession`` asks of its caller after bytes arrive, in the order given.
public enum RTMPServerEvent: Sendable, Equatable {
    /// Bytes to write to the peer, in order with every other `.send`.
    case send([UInt8])
    /// The peer asks to publish `streamKey` (the publish name before any `?`) to `app` (the
    /// `app` of its `connect`). Authorize it, then call ``RTMPServerSession/accept()`` or
    /// ``RTMPServerSession/reject(description:)``; until then no media is surfaced.
    case publish(app: String, streamKey: String)
    /// The stream's metadata (`onMetaData`: width, height, framerate, codecs …), once publishing.
    case metadata([String: AMF0])
    /// An audio or video message, once publishing.
    case media(RTMPMediaMessage)
    /// The peer stopped publishing (`FCUnpublish`, `deleteStream` or `closeStream`), or
    /// gave up a publish still waiting for authorization. It may publish again.
    case unpublished
    /// The session is over: close the connection once the bytes sent before are written.
    case closed(CloseReason)

    /// Why a session ended.
    public enum CloseReason: Sendable, Equatable {
        /// The caller rejected the publish of `streamKey`; the peer was told
        /// `NetStream.Publish.BadName`, and everything it sends since is ignored.
        case publishRejected(streamKey: String)
    }
}
