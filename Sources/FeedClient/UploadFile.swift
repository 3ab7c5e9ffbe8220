import Foundation

/// The file a ``TusUploader`` sends, read a chunk at a time at an offset.
final class UploadFile: @unchecked Sendable {
    let path: String
    let length: Int64
    private let handle: FileHandle

    init(path: String) throws(FeedClientError) {
        self.path = path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .file(path: path, reason: "no such file")
        }
        guard !isFolder.boolValue else { throw .file(path: path, reason: "is a folder") }
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            length = Int64(try handle.seekToEnd())
        } catch {
            throw .file(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// `count` bytes from `offset`; fewer only if the file shrank, which is an error.
    func read(at offset: Int64, count: Int) throws(FeedClientError) -> [UInt8] {
        do {
            try handle.seek(toOffset: UInt64(offset))
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw FeedClientError.file(path: path, reason: "changed while it was uploaded") }
            return [UInt8](data)
        } catch let error as FeedClientError {
            throw error
        } catch {
            throw .file(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    func close() {
        try? handle.close()
    }
}
