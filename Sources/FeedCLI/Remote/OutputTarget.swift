import FeedCore
import Foundation
import OpenAPIRuntime

/// A downloaded output: written to a hidden temporary file next to it and renamed into place
/// at the end, so a cut download or a signal leaves nothing at the path.
struct OutputTarget: Sendable {
    let path: String
    let force: Bool

    /// Refuses an existing output without --force, a folder, or a missing folder (73).
    func check() throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw CommandFailure(description: "\(path): is a folder; give -o a file name", kind: .cannotCreate) }
            if !force { throw CommandFailure(description: "\(path): exists (--force replaces it)", kind: .cannotCreate) }
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
            throw CommandFailure(description: "\(path): its folder \(folder) does not exist", kind: .cannotCreate)
        }
    }

    /// Streams `body` into the temporary file, syncs it and renames it to ``path``.
    func write(_ body: HTTPBody, isCancelled: @escaping @Sendable () -> Bool) async throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).part-\(getpid())").path
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw CommandFailure(description: "\(path): cannot be created", kind: .cannotCreate)
        }
        do {
            for try await chunk in body {
                if isCancelled() { throw CommandFailure(description: "\(path): interrupted; nothing written", kind: .interrupted) }
                try handle.write(contentsOf: chunk)
            }
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else {
                throw CommandFailure(description: "\(path): cannot be written (\(String(cString: strerror(errno))))", kind: .io)
            }
        } catch {
            try? handle.close()
            unlink(temporary)
            if error is FeedFailure { throw error }
            throw CommandFailure(description: "\(path): download failed (\(error))", kind: .io)
        }
    }
}
