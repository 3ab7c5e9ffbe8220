import Crypto
import FeedCore
import Foundation

/// Where `feed push` remembers its unfinished uploads, so a second run resumes one instead of
/// sending the file again: one small JSON file per (server, file) under
/// `$XDG_STATE_HOME/feed/uploads` (else `~/.local/state/feed/uploads`), written atomically,
/// removed when the upload is finished. A file that changed (size or modification time) since
/// its upload began starts a new upload.
public struct UploadJournal: Sendable {
    /// The folder of entries.
    public let folder: String

    /// One unfinished upload.
    public struct Entry: Codable, Sendable, Equatable {
        public var server: String
        public var file: String
        public var size: Int64
        public var modified: Double
        public var uploadID: String

        enum CodingKeys: String, CodingKey {
            case server, file, size, modified
            case uploadID = "upload_id"
        }
    }

    /// The journal in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// The journal's folder from the environment, as the XDG base directory specification says.
    public static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/feed/uploads"
        }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/feed/uploads"
    }

    /// The upload id remembered for `file` (an absolute path) on `server`, if the file is unchanged.
    public func uploadID(server: String, file: String) -> String? {
        guard let (size, modified) = Self.identity(file),
              let data = FileManager.default.contents(atPath: path(server: server, file: file)),
              let entry = try? JSONDecoder().decode(Entry.self, from: data),
              entry.server == server, entry.file == file, entry.size == size, entry.modified == modified else { return nil }
        return entry.uploadID
    }

    /// Remembers `uploadID` for `file` on `server` (a temporary file renamed into place).
    public func remember(_ uploadID: String, server: String, file: String) throws(RemoteError) {
        guard let (size, modified) = Self.identity(file) else { return }
        let entry = Entry(server: server, file: file, size: size, modified: modified, uploadID: uploadID)
        let target = path(server: server, file: file)
        let temporary = target + ".tmp.\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try (encoder.encode(entry) + [0x0A]).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .cache(path: folder, reason: "cannot remember the upload (\(error.localizedDescription))")
        }
    }

    /// Forgets the upload of `file` on `server` (done, or gone from the server).
    public func forget(server: String, file: String) {
        try? FileManager.default.removeItem(atPath: path(server: server, file: file))
    }

    /// The entry's file: the SHA-256 of server and path, so any path fits in a file name.
    func path(server: String, file: String) -> String {
        let digest = SHA256.hash(data: Data("\(server)\n\(file)".utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return "\(folder)/\(digest).json"
    }

    /// Size and modification time (seconds since 1970) of `file`, nil if it cannot be read.
    static func identity(_ file: String) -> (Int64, Double)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
              let size = (attributes[.size] as? NSNumber)?.int64Value,
              let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 else { return nil }
        return (size, modified)
    }
}
