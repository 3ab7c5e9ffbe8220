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

    /// Streams `body` into a temporary file beside ``path`` (``AtomicFileWriter``), then syncs
    /// it and renames it into place; a failure or a cancel leaves nothing at ``path``.
    func write(_ body: HTTPBody, isCancelled: @escaping @Sendable () -> Bool) async throws {
        let writer: AtomicFileWriter
        do { writer = try AtomicFileWriter(URL(fileURLWithPath: path)) } catch {
            throw CommandFailure(description: "\(path): cannot be created", kind: .cannotCreate)
        }
        do {
            for try await chunk in body {
                if isCancelled() { throw CommandFailure(description: "\(path): interrupted; nothing written", kind: .interrupted) }
                try writer.write(chunk)
            }
            do { try writer.commit() } catch {
                throw CommandFailure(description: "\(path): cannot be written (\(error))", kind: .io)
            }
        } catch {
            writer.discard()
            if error is FeedFailure { throw error }
            throw CommandFailure(description: "\(path): download failed (\(error))", kind: .io)
        }
    }
}
