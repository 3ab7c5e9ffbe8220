import Foundation

/// Appends one PATCH's bytes to an upload's part (through the media store's ``MediaAppender``):
/// what ``UploadStore/patch(id:offset:declaredLength:body:)`` hands its body. It keeps the
/// upload's rules (never past the declared length, nothing after the claim is lost); the store
/// keeps the bytes. Calls block (write, and sync every ``syncInterval`` bytes), so run them off
/// the server's threads.
public final class UploadWriter: Sendable {
    private struct State {
        var appender: (any MediaAppender)?
        var offset: Int64
        var unsynced: Int64 = 0
        var overflowed = false
        var revoked = false
    }

    /// fsync after this many bytes, so a machine crash loses little of a long PATCH.
    public static let syncInterval: Int64 = 8 << 20

    let id: String
    let length: Int64
    let start: Int64
    private let state: Locked<State>

    /// Opens (creating) upload `id`'s part in `media` to append at `offset`, which must be its size.
    init(id: String, media: any MediaStore, offset: Int64, length: Int64) throws(UploadError) {
        let appender: any MediaAppender
        do { appender = try media.append(to: .upload(id: id), at: offset) } catch { throw .roll(error) }
        self.id = id
        self.length = length
        start = offset
        state = Locked(State(appender: appender, offset: offset))
    }

    deinit { state.withLock { $0.appender?.close() } }

    /// Bytes in the file so far.
    public var offset: Int64 { state.withLock { $0.offset } }

    /// Bytes made durable by the last sync (or there when the PATCH began): what `HEAD` may report.
    public var synced: Int64 { state.withLock { $0.offset - $0.unsynced } }

    /// Writes `bytes` at the end.
    /// - Throws: ``UploadError/exceedsLength(id:length:offset:)`` when they would go past the
    ///   declared length (nothing of them is written; the store then drops the whole PATCH);
    ///   ``UploadError/roll(_:)`` when the write fails.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(UploadError) {
        try state.withLock { (state: inout State) throws(UploadError) in
            guard let appender = state.appender else { throw .roll(.io(path: "\(id).part", reason: "write after the PATCH ended")) }
            guard !state.revoked else { throw .busy(id: id) }
            guard Int64(bytes.count) <= length - state.offset else {
                state.overflowed = true
                throw .exceedsLength(id: id, length: length, offset: start)
            }
            do throws(RollError) {
                try appender.write(bytes, at: state.offset)
                state.offset += Int64(bytes.count)
                state.unsynced += Int64(bytes.count)
                if state.unsynced >= Self.syncInterval {
                    try appender.sync()
                    state.unsynced = 0
                }
            } catch { throw .roll(error) }
        }
    }

    /// Writes `bytes` at the end (see ``append(_:)-(UnsafeRawBufferPointer)``).
    public func append(_ bytes: [UInt8]) throws(UploadError) {
        var failure: UploadError?
        bytes.withUnsafeBytes { raw in
            do throws(UploadError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Refuses every later write (``UploadError/busy(id:)``): the request lost its claim on the
    /// upload, so another one may be writing to it now.
    func revoke() {
        state.withLock { $0.revoked = true }
    }

    /// Ends the PATCH: an overflowing one is cut back to where it began; then sync and close,
    /// so the part's size is what a restart reports as the offset.
    func finish() throws(UploadError) -> Int64 {
        try state.withLock { (state: inout State) throws(UploadError) in
            guard let appender = state.appender else { return state.offset }
            defer { appender.close(); state.appender = nil }
            if state.overflowed && (try? appender.truncate(to: start)) != nil { state.offset = start }
            do throws(RollError) { try appender.sync() } catch { throw .roll(error) }
            state.unsynced = 0
            return state.offset
        }
    }
}
