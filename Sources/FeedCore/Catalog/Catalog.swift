/// Everything feed keeps as rows: recordings, marks, jobs, comments, uploads, webhook
/// endpoints and live streams, behind one value that is passed once to the roll, the job queue, the server and
/// the worker.
///
/// Two sibling modules implement it: `FeedSQLite` (the roll's own file, one machine) and
/// `FeedPostgres` (shared by several machines). Both run the same contract suites
/// (`Tests/FeedCoreTests/Catalog`), so a third implementation joins by passing them.
///
/// The stores' protocols keep their required methods few and each one atomic; the policy
/// over them (job backoff and lease words, paging defaults, the owner-less shorthands) lives
/// in FeedCore's extensions, written once for every dialect.
public protocol Catalog: RecordingCatalog, MarkStore, JobStore, CommentStore, UploadRecordStore, WebhookStore, LiveStreamStore {
    /// Ends the catalog's connections once nothing will call it again (a pool's sockets end
    /// cleanly instead of being cut by the process's exit). Nothing for a file database.
    func close() async
}

extension Catalog {
    /// A file database holds no connection to end.
    public func close() async {}
}
