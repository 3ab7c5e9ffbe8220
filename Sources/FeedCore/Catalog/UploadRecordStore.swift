import Foundation

/// Where the records of resumable uploads are kept, and how the nodes sharing them take turns:
/// a request that writes to an upload (PATCH, DELETE, completion, expiry) first claims it
/// under a fresh token for a short lease, renews the lease while it works, and every change it
/// makes checks the token, so two servers never write the same upload at once and a server
/// that died mid-request holds nothing once its lease runs out. Each call is one atomic
/// transaction. Lease times are the store's clock (the database's, for PostgreSQL).
///
/// `SQLiteCatalog` (FeedSQLite) keeps uploads in the roll's database; `PostgresCatalog` in PostgreSQL, for
/// servers on many machines sharing one media folder. Both run `UploadRecordStoreTests`.
public protocol UploadRecordStore: Sendable {
    /// Adds a new upload's record.
    func insertUpload(_ record: UploadRecord) async throws(RollError)

    /// The record of upload `id` (with ``UploadRecord/held``), or nil.
    func uploadRecord(id: String) async throws(RollError) -> UploadRecord?

    /// Every record, or only those in `phase`, oldest first (expiry and recovery walk them).
    func uploadRecords(phase: UploadRecord.Phase?) async throws(RollError) -> [UploadRecord]

    /// Takes upload `id` under `token` for `seconds` when nobody holds it (or the holder's lease
    /// ran out); false when another request holds it or there is no such upload.
    func claimUpload(id: String, token: String, for seconds: Double) async throws(RollError) -> Bool

    /// Extends a held claim to `seconds` from now and, when `synced` is given, records it as the
    /// bytes the holder has made durable (``UploadRecord/synced``); false when the claim was lost.
    func renewUpload(id: String, token: String, for seconds: Double, synced: Int64?) async throws(RollError) -> Bool

    /// Lets go of a held claim, forgetting its ``UploadRecord/synced`` (nothing when it was lost).
    func releaseUpload(id: String, token: String) async throws(RollError)

    /// Records how a held upload ended (`phase`, `recordingID`, `error`, `finished` of
    /// `record`) and lets go of it; false when the claim was lost (nothing written).
    func finishUpload(_ record: UploadRecord, token: String) async throws(RollError) -> Bool

    /// Removes a held upload's record; false when the claim was lost (nothing removed).
    func deleteUpload(id: String, token: String) async throws(RollError) -> Bool
}
