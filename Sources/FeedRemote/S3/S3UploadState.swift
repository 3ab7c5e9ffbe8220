import FeedCore
import Foundation
import NIOCore

/// Where an unfinished upload stands in the store, kept as one small object (`uploads/.state/
/// <name>`) rewritten at each sync: its body is the tail (the bytes past the last whole part, less
/// than a part), its metadata the multipart upload's id, how many parts count and their size.
/// Rewriting it is the one step that makes a sync durable: parts uploaded before a crash cut the
/// sync short are not counted, and are uploaded again (the same numbers) when the client resumes.
struct S3UploadState: Sendable {
    /// The multipart upload that will complete at the upload's key.
    var uploadID: String
    /// The parts that count: 1…`parts`, each `partSize` bytes.
    var parts: Int
    var partSize: Int
    /// The bytes after them.
    var tail: [UInt8]
    /// When it was last written.
    var modified: Date

    /// The upload's offset: every byte durably received.
    var size: Int64 { Int64(parts) * Int64(partSize) + Int64(tail.count) }

    /// The state of `objectKey`'s upload, or nil when it has none.
    static func read(_ client: S3Client, stateKey: String) async throws(S3Error) -> S3UploadState? {
        guard let found = try await client.getWithMetadata(stateKey, limit: 64 << 20) else { return nil }
        guard let id = found.metadata["upload-id"], let parts = found.metadata["parts"].flatMap(Int.init),
              let partSize = found.metadata["part-size"].flatMap(Int.init) else {
            throw .invalidResponse(target: client.target(stateKey), operation: "read an upload's state", reason: "its metadata is missing")
        }
        return S3UploadState(uploadID: id, parts: parts, partSize: partSize, tail: Array(found.body.readableBytesView),
                             modified: found.lastModified ?? Date())
    }

    /// Writes this state as `stateKey`.
    func write(_ client: S3Client, stateKey: String) async throws(S3Error) {
        try await client.put(stateKey, body: ByteBuffer(bytes: tail),
                             metadata: ["upload-id": uploadID, "parts": String(parts), "part-size": String(partSize)])
    }
}
