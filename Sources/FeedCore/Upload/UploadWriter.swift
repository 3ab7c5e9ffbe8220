import Foundation

/// Appends one PATCH's bytes to an upload's partial file: what ``UploadStore/patch(id:offset:declaredLength:body:)``
/// hands its body. Calls block (write, and fsync every ``syncInterval`` bytes), so run them off the server's threads.
public final class UploadWriter: Sendable {
    private struct State {
        var fd: Int32
        var offset: Int64
        var unsynced: Int64 = 0
        var overflowed = false
        var revoked = false
    }

    /// fsync after this many bytes, so a machine crash loses little of a long PATCH.
    public static let syncInterval: Int64 = 8 << 20

    let id: String
    let file: URL
    let length: Int64
    let start: Int64
    private let state: Locked<State>

    /// Opens (creating) `file` to append at `offset`, which must be its size.
    init(id: String, file: URL, offset: Int64, length: Int64) throws(UploadError) {
        let fd = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .roll(DurableFile.failure(file, "cannot open")) }
        self.id = id
        self.file = file
        self.length = length
        start = offset
        state = Locked(State(fd: fd, offset: offset))
    }

    deinit { state.withLock { if $0.fd >= 0 { close($0.fd) } } }

    /// Bytes in the file so far.
    public var offset: Int64 { state.withLock { $0.offset } }

    /// Writes `bytes` at the end.
    /// - Throws: ``UploadError/exceedsLength(id:length:offset:)`` when they would go past the
    ///   declared length (nothing of them is written; the store then drops the whole PATCH);
    ///   ``UploadError/roll(_:)`` when the write fails.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(UploadError) {
        try state.withLock { (state: inout State) throws(UploadError) in
            guard state.fd >= 0 else { throw .roll(.io(path: file.path, reason: "write after the PATCH ended")) }
            guard !state.revoked else { throw .busy(id: id) }
            guard Int64(bytes.count) <= length - state.offset else {
                state.overflowed = true
                throw .exceedsLength(id: id, length: length, offset: start)
            }
            var done = 0
            while done < bytes.count {
                let n = pwrite(state.fd, bytes.baseAddress! + done, bytes.count - done, off_t(state.offset) + off_t(done))
                if n < 0 { if errno == EINTR { continue }; throw .roll(DurableFile.failure(file, "write failed")) }
                done += n
            }
            state.offset += Int64(done)
            state.unsynced += Int64(done)
            if state.unsynced >= Self.syncInterval {
                guard fsync(state.fd) == 0 else { throw .roll(DurableFile.failure(file, "fsync failed")) }
                state.unsynced = 0
            }
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

    /// Ends the PATCH: an overflowing one is cut back to where it began; then fsync and close,
    /// so the file's size is what a restart reports as the offset.
    func finish() throws(UploadError) -> Int64 {
        try state.withLock { (state: inout State) throws(UploadError) in
            guard state.fd >= 0 else { return state.offset }
            defer { close(state.fd); state.fd = -1 }
            if state.overflowed && ftruncate(state.fd, off_t(start)) == 0 { state.offset = start }
            guard fsync(state.fd) == 0 else { throw .roll(DurableFile.failure(file, "fsync failed")) }
            return state.offset
        }
    }
}
