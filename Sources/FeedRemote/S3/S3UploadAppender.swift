import FeedCore
import Foundation
import NIOCore

/// Appends a tus upload's bytes to its multipart upload: bytes gather in memory until a sync,
/// which uploads every whole part and rewrites the upload's state (``S3UploadState``) with the
/// rest as its tail. Used by one request at a time (see ``MediaAppender``).
final class S3UploadAppender: MediaAppender {
    private let store: S3MediaStore
    private let objectKey: String
    private let stateKey: String
    /// What the state object says now.
    private var state: S3UploadState
    /// As it was when opened: what a truncation back to the start restores.
    private let opened: S3UploadState
    /// The tail and the bytes written since the last sync.
    private var pending: [UInt8]

    init(store: S3MediaStore, objectKey: String, stateKey: String, state: S3UploadState) {
        self.store = store
        self.objectKey = objectKey
        self.stateKey = stateKey
        self.state = state
        opened = state
        pending = state.tail
    }

    /// Bytes written so far, synced or not.
    private var end: Int64 { Int64(state.parts) * Int64(state.partSize) + Int64(pending.count) }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(RollError) {
        guard offset == end else { throw .io(path: store.client.target(objectKey), reason: "write at \(offset), the upload ends at \(end)") }
        pending.append(contentsOf: bytes)
    }

    func sync() throws(RollError) {
        var next = state
        var rest = pending[...]
        let client = store.client, objectKey = objectKey, stateKey = stateKey
        while rest.count >= next.partSize {
            let number = next.parts + 1, body = ByteBuffer(bytes: rest.prefix(next.partSize)), id = next.uploadID
            _ = try store.wait { () throws(S3Error) in try await client.uploadPart(objectKey, uploadID: id, number: number, body: body) }
            next.parts = number
            rest = rest.dropFirst(next.partSize)
        }
        next.tail = Array(rest)
        if next.parts > state.parts { CrashPoint.reach(.uploadParts) }
        let written = next
        try store.wait { () throws(S3Error) in try await written.write(client, stateKey: stateKey) }
        state = next
        pending = next.tail
    }

    func truncate(to size: Int64) throws(RollError) {
        if size >= Int64(state.parts) * Int64(state.partSize), size <= end {
            pending.removeLast(Int(end - size))
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
        pending = opened.tail
    }

    func close() {}
}
