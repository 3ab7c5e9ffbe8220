import Foundation

/// What the cache keeps beside a clip (`KEY.json`) or a partial download (`KEY.part.json`):
/// the URL it came from and the validators that tell whether the bytes are still that clip.
struct ClipMetadata: Codable, Equatable, Sendable {
    /// The clip's URL (a hash collision, or a stray file, never passes for another clip).
    var url: String
    /// The server's ETag, when it sent one.
    var etag: String?
    /// The server's Last-Modified, when it sent one.
    var lastModified: String?
    /// The full length in bytes, when the server said (Content-Length or Content-Range).
    var length: Int64?

    /// What `If-Range` sends to resume: the ETag, else Last-Modified; nil when neither is
    /// known (a partial without a validator cannot be resumed safely).
    var validator: String? { etag ?? lastModified }

    /// Reads `path`; nil when it is missing or not this format.
    static func read(_ path: String) -> ClipMetadata? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(ClipMetadata.self, from: data)
    }

    /// Writes `path` atomically (a temporary file renamed over it).
    func write(_ path: String) throws(RemoteError) {
        do {
            let data = try JSONEncoder().encode(self)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .cache(path: path, reason: error.localizedDescription)
        }
    }
}
