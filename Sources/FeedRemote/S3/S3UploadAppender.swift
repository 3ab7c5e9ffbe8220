import FeedCore
import Foundation
import NIOCore

/// Appends a tus upload's bytes to its multipart upload: bytes wait in a local spool file
/// (``S3UploadSpool``) until a sync, which uploads every whole part from it and rewrites the
/// upload's state (``S3UploadState``) with the rest as its tail. So memory holds one part at a
/// time, however long the PATCH. Used by one request at a time (see ``MediaAppender``).
final class S3UploadAppender: MediaAppender {
    private let store: S3MediaStore
    private let objectKey: String
    private let stateKey: String
    /// What the state object says now.
    private var state: S3UploadState
    /// As it was when opened: what a truncation back to the start restores.
    private let opened: S3UploadState
    /// The tail and the bytes written since the last sync.
    private let spool: S3UploadSpool

    init(store: S3MediaStore, objectKey: String, stateKey: String, state: S3UploadState) throws(RollError) {
        self.store = store
        self.objectKey = objectKey
        self.stateKey = stateKey
        self.state = state
        opened = state
        spool = try S3UploadSpool(folder: store.cache.appendingPathComponent(".spool", isDirectory: true),
                                  shown: store.client.target(objectKey))
        try spool.append(state.tail)
    }

    /// Bytes counted in whole parts.
    private var counted: Int64 { Int64(state.parts) * Int64(state.partSize) }

    /// Bytes written so far, synced or not.
    private var end: Int64 { counted + Int64(spool.count) }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(RollError) {
        guard offset == end else { throw .io(path: store.client.target(objectKey), reason: "write at \(offset), the upload ends at \(end)") }
        try spool.append(bytes)
    }

    func sync() throws(RollError) {
        var next = state, used = 0
        let client = store.client, objectKey = objectKey, stateKey = stateKey
        while spool.count - used >= next.partSize {
            let number = next.parts + 1, id = next.uploadID
            let body = ByteBuffer(bytes: try spool.read(at: used, length: next.partSize))
            _ = try store.wait { () throws(S3Error) in try await client.uploadPart(objectKey, uploadID: id, number: number, body: body) }
            next.parts = number
            used += next.partSize
        }
        next.tail = try spool.read(at: used, length: spool.count - used)
        if next.parts > state.parts { CrashPoint.reach(.uploadParts) }
        let written = next
        try store.wait { () throws(S3Error) in try await written.write(client, stateKey: stateKey) }
        state = next
        try spool.dropFirst(used)
    }

    func truncate(to size: Int64) throws(RollError) {
        if size >= counted, size <= end {
            try spool.truncate(to: Int(size - counted))
            return
        }
        // Back to where the request began (an overflowing PATCH): the state as it was opened,
        // whose later parts no longer count.
        guard size == opened.size else {
            throw .io(path: store.client.target(objectKey), reason: "cannot cut an upload in a store back to \(size) bytes")
        }
        let client = store.client, stateKey = stateKey, restored = opened
        try store.wait { () throws(S3Error) in try await restored.write(client, stateKey: stateKey) }
        state = opened
        try spool.truncate(to: 0)
        try spool.append(opened.tail)
    }

    func close() { spool.close() }
}
