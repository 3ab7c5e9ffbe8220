/// Where a ``TusUploader`` upload stands: one element of its progress stream.
public struct UploadProgress: Sendable, Hashable {
    /// The upload's id on the server (`/uploads/{id}`): keep it to resume the upload later.
    public var uploadID: String
    /// Bytes the server has confirmed holding.
    public var offset: Int64
    /// The file's size.
    public var length: Int64
    /// Bytes this uploader handed to the network, in this run (a chunk cut off counts in full).
    public var sent: Int64
    /// Where this run's bytes started: the server's offset when it started (0 for a new
    /// upload), or the one it gave later, when it took back a lower one before any byte went
    /// (a server that restarted reports only synced bytes while a dead request's claim lasts).
    public var resumedFrom: Int64
    /// The recording the finished upload became; set on the stream's last element only.
    public var recordingID: Int?

    /// Whether the upload is finished and in the roll.
    public var isComplete: Bool { recordingID != nil }
    /// `offset / length`, 1 for an empty file.
    public var fraction: Double { length == 0 ? 1 : Double(offset) / Double(length) }
}
