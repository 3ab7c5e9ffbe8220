import Foundation

/// A live stream as the catalog keeps it: a title, a secret stream key a publisher (OBS, a phone,
/// `feed live publish`) sends to go live, and where the stream is in its life.
public struct LiveStream: Sendable, Equatable {
    /// Where a stream is in its life: `idle` until a publisher is accepted, `active` while it
    /// publishes (and within the reconnect window after it drops), `ended` for good (by its
    /// owner, or once the window passed); an ended stream is never published to again.
    public enum State: String, Sendable, CaseIterable {
        case idle, active, ended
    }

    /// 1, 2, … in the order streams were created (0 before the catalog gave one).
    public var id: Int64
    public var title: String
    /// The secret a publisher sends (see ``StreamKey``): shown to the stream's owner and the
    /// admin only, compared in constant time, looked up by its hash.
    public var streamKey: String
    public var state: State
    /// The user who created it (nil: the server's own, or no users).
    public var owner: String?
    public var createdAt: Date
    /// When a publisher was last accepted.
    public var wentLiveAt: Date?
    /// When it ended.
    public var endedAt: Date?
    /// The recording it became once ended, when there is one.
    public var recordingID: Int64?
    /// Why it was refused or stopped (a codec other than H.264/AAC), for `GET /live/{id}`.
    public var error: String?
    /// The base URL (`http://host:port`) of the server that packages the stream: the one its
    /// publisher reached last. Other servers sharing the catalog send players there.
    public var origin: String?
    /// The viewers the server packaging it counted last (``LiveStreamStore/setLiveViewers(stream:count:)``);
    /// ``LiveStreamStore/updateLiveStream(_:ifState:)`` does not write it.
    public var viewers: Int
    /// Every heart sent to it, through any server (``LiveStreamStore/addLiveHearts(stream:count:)``);
    /// ``LiveStreamStore/updateLiveStream(_:ifState:)`` does not write it.
    public var hearts: Int64

    /// A new idle stream of `title` with `streamKey`, created at `createdAt`.
    public init(id: Int64 = 0, title: String, streamKey: String, state: State = .idle, owner: String? = nil,
                createdAt: Date, wentLiveAt: Date? = nil, endedAt: Date? = nil, recordingID: Int64? = nil, error: String? = nil,
                origin: String? = nil, viewers: Int = 0, hearts: Int64 = 0) {
        self.id = id
        self.title = title
        self.streamKey = streamKey
        self.state = state
        self.owner = owner
        self.createdAt = createdAt
        self.wentLiveAt = wentLiveAt
        self.endedAt = endedAt
        self.recordingID = recordingID
        self.error = error
        self.origin = origin
        self.viewers = viewers
        self.hearts = hearts
    }

    /// The hash the catalog finds a stream by, from its key (``StreamKey/hash(_:)``).
    public var keyHash: String { StreamKey.hash(streamKey) }
}
