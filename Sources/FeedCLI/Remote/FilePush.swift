import FeedClient
import FeedCore
import FeedRemote
import Foundation

/// Sends one file to a server with tus, resuming the upload the journal remembers for it:
/// `feed push` and `feed remote stack` both push this way.
struct FilePush {
    let server: RemoteServer
    let journal: UploadJournal
    var uploader: TusUploader
    let line: PushProgressLine

    init(server: RemoteServer, journal: UploadJournal = UploadJournal(folder: UploadJournal.folder()),
         chunkSize: Int? = nil, bytesPerSecond: Int? = nil, retries: Int? = nil) {
        self.server = server
        self.journal = journal
        uploader = TusUploader(client: server.client)
        if let chunkSize { uploader.chunkSize = chunkSize }
        uploader.bytesPerSecond = bytesPerSecond
        if let retries { uploader.retries = retries }
        line = PushProgressLine()
    }

    /// Checks that `path` is a readable file, before anything is sent: 66 if it is missing.
    static func check(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CommandFailure(description: "\(path): no such file", kind: .missingInput)
        }
        guard !isFolder.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw CommandFailure(description: "\(path): \(isFolder.boolValue ? "is a folder" : "cannot be read")", kind: .missingInput)
        }
    }

    /// Uploads `path` (resuming when the journal knows it) until the server has it in the roll.
    /// A signal (`isCancelled`) or a failure leaves the journal entry, so a next run resumes.
    func push(_ path: String, title: String?, isCancelled: @escaping @Sendable () -> Bool) async throws -> PushResult {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let known = journal.uploadID(server: server.url, file: absolute)
        let name = (path as NSString).lastPathComponent
        let latest = LatestProgress()
        defer { line.finish() }
        do {
            try await Self.untilCancelled(isCancelled) { [uploader, journal, server, line] in
                for try await progress in uploader.upload(file: path, title: title, resuming: known) {
                    if latest.value?.uploadID != progress.uploadID {
                        try journal.remember(progress.uploadID, server: server.url, file: absolute)
                    }
                    latest.value = progress
                    line.show(name, progress)
                }
            }
        } catch {
            let last = latest.value
            line.finish()
            let held = last.map { " (sent \($0.sent) bytes; the server holds \($0.offset) of \($0.length): run again to resume)" } ?? ""
            if isCancelled() {
                throw CommandFailure(description: "\(path): interrupted\(held)", kind: .interrupted)
            }
            let failure = FeedClientError(error)
            // Gone, or refused for what it holds (not a video): nothing to resume.
            if case .uploadGone = failure { journal.forget(server: server.url, file: absolute) }
            if case .server = failure, failure.failureKind == .invalidData {
                journal.forget(server: server.url, file: absolute)
                throw CommandFailure(description: "\(path): \(server.url): \(failure)", kind: .invalidData)
            }
            throw CommandFailure(description: "\(path): \(server.url): \(failure)\(held)", kind: failure.failureKind)
        }
        guard let last = latest.value, let recording = last.recordingID else {
            throw CommandFailure(description: "\(path): the upload ended without a recording", kind: .io)
        }
        journal.forget(server: server.url, file: absolute)
        return PushResult(file: path, uploadID: last.uploadID, recordingID: recording, bytes: last.length,
                          sent: last.sent, resumedFrom: last.resumedFrom)
    }

    /// Runs `work`, cancelling it once `isCancelled` turns true (checked every 100 ms).
    static func untilCancelled(_ isCancelled: @escaping @Sendable () -> Bool, _ work: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await work() }
            group.addTask {
                while !isCancelled() { try await Task.sleep(for: .milliseconds(100)) }
                throw CancellationError()
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// The last progress an upload reported: written by the upload's task, read after it ended.
private final class LatestProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: UploadProgress?

    var value: UploadProgress? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
