import FeedCore
import Foundation
import NIOCore

/// tus uploads in a bucket: each is one multipart upload at `uploads/<id>.part`, with its state
/// (``S3UploadState``: the counted parts and the tail) in `uploads/.state/<id>.part`, so any
/// server sharing the bucket resumes it from the same offset. Finishing it completes the
/// multipart upload (the tail as the last part).
extension S3MediaStore {
    /// The state object of upload `key`.
    func stateKey(_ key: MediaKey) -> String { location.key("uploads/.state/\(RollPaths.storedName(key.name))") }

    public func append(to key: MediaKey, at offset: Int64) throws(RollError) -> any MediaAppender {
        let client = client, objectKey = objectKey(key), stateKey = stateKey(key), partSize = partSize
        let state: S3UploadState = try wait { () throws(S3Error) in
            if let state = try await S3UploadState.read(client, stateKey: stateKey) { return state }
            // A new upload: its multipart upload and a state saying nothing is in it yet.
            let id = try await client.createMultipartUpload(objectKey)
            let state = S3UploadState(uploadID: id, parts: 0, partSize: partSize, tail: [], modified: Date())
            try await state.write(client, stateKey: stateKey)
            return state
        }
        guard state.size == offset else {
            throw RollError.io(path: shown(key), reason: "the upload holds \(state.size) bytes, not \(offset)")
        }
        return try S3UploadAppender(store: self, objectKey: objectKey, stateKey: stateKey, state: state)
    }

    public func size(of key: MediaKey) -> (bytes: Int64, modified: Date)? {
        let client = client, objectKey = objectKey(key), stateKey = stateKey(key), isUpload = key.kind == .upload
        let found = try? wait { () throws(S3Error) -> (bytes: Int64, modified: Date)? in
            // An upload's state, looked at without its tail: the counted parts and the tail's length.
            if isUpload, let state = try await client.head(stateKey), let parts = state.metadata["parts"].flatMap(Int64.init),
               let partSize = state.metadata["part-size"].flatMap(Int64.init) {
                return (parts * partSize + state.size, state.lastModified ?? Date())
            }
            guard let object = try await client.head(objectKey) else { return nil }
            return (object.size, object.lastModified ?? Date())
        }
        return found ?? nil
    }

    /// Completes upload `key` into its object (once; a finished one is left as it is): the tail
    /// is the last part, the counted parts before it; with no whole part, the tail alone is put.
    func finish(_ key: MediaKey) throws(RollError) {
        let client = client, objectKey = objectKey(key), stateKey = stateKey(key)
        try wait { () throws(S3Error) in
            guard let state = try await S3UploadState.read(client, stateKey: stateKey) else { return }
            if state.parts == 0 {
                try await client.put(objectKey, body: ByteBuffer(bytes: state.tail))
                try await client.abortMultipartUpload(objectKey, uploadID: state.uploadID)
            } else {
                var parts: [S3MultipartUpload.Part] = []
                // The store's newest copy of each counted part (one uploaded twice, before and
                // after a crash, is listed twice by some stores).
                for part in try await client.listParts(objectKey, uploadID: state.uploadID) ?? [] where part.number <= state.parts {
                    parts.removeAll { $0.number == part.number }
                    parts.append(part)
                }
                if !state.tail.isEmpty {
                    parts.append(try await client.uploadPart(objectKey, uploadID: state.uploadID, number: state.parts + 1, body: ByteBuffer(bytes: state.tail)))
                }
                try await client.completeMultipartUpload(objectKey, uploadID: state.uploadID, parts: parts)
            }
            try await client.delete(stateKey)
        }
    }

    /// A copy of upload `key`'s bytes as `name` (the store's own copy, no transfer), after
    /// completing it.
    public func alias(_ key: MediaKey, as name: String) throws(RollError) -> MediaKey {
        try finish(key)
        let named = MediaKey(kind: key.kind, name: name), client = client, from = objectKey(key), to = objectKey(named)
        try wait { () throws(S3Error) in try await client.copy(from, to: to, size: try await client.head(from)?.size) }
        try? FileManager.default.removeItem(at: cached(named))
        return named
    }

    /// Never: a finished upload joins the roll as a copy (``MediaStore/put(_:from:mode:check:)``),
    /// not by sharing its bytes.
    public func recording(sharingBytesOf key: MediaKey) -> MediaKey? { nil }

    /// Removes an upload: its multipart upload, its state, its object.
    func removeUpload(_ key: MediaKey) throws(RollError) {
        let client = client, objectKey = objectKey(key), stateKey = stateKey(key)
        try wait { () throws(S3Error) in
            if let state = try await S3UploadState.read(client, stateKey: stateKey) {
                try await client.abortMultipartUpload(objectKey, uploadID: state.uploadID)
            }
            try await client.delete(stateKey)
            try await client.delete(objectKey)
        }
    }

    /// Names of uploads in progress (their state objects).
    func uploadsInProgress() -> [String] {
        let client = client, prefix = location.key("uploads/.state/")
        let objects = (try? wait { () throws(S3Error) in try await client.list(prefix: prefix) }) ?? []
        return objects.map { String($0.key.dropFirst(prefix.count)) }.filter { !$0.contains("/") }
    }
}
