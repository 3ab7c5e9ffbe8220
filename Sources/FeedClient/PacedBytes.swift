import Foundation
import OpenAPIRuntime

/// One chunk as a request body, handed out 64 KiB at a time so that ``SentBytes`` counts (and
/// paces) what the transport actually takes.
struct PacedBytes: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    static let slice = 64 * 1024
    let bytes: [UInt8]
    let sent: SentBytes

    struct AsyncIterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        let sent: SentBytes
        var index = 0

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard index < bytes.count else { return nil }
            let end = Swift.min(bytes.count, index + PacedBytes.slice)
            let piece = bytes[index..<end]
            index = end
            try await sent.add(piece.count)
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, sent: sent) }
}

/// The bytes an upload has sent and the server confirmed, shared between the body being sent and
/// the uploader; reports each change and keeps to the rate limit.
final class SentBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var progress: UploadProgress
    private let pace: Int?
    private let sleep: @Sendable (Duration) async throws -> Void
    private let report: @Sendable (UploadProgress) -> Void
    private let start = ContinuousClock.now
    /// What the rate limit has waited so far: a ``TusUploader/sleep`` that passes no real time
    /// (a test's) still moves the schedule on.
    private var slept = Duration.zero

    init(start progress: UploadProgress, pace: Int?, sleep: @escaping @Sendable (Duration) async throws -> Void,
         report: @escaping @Sendable (UploadProgress) -> Void) {
        self.progress = progress
        self.pace = pace
        self.sleep = sleep
        self.report = report
    }

    /// Counts `count` more bytes sent, then waits as long as the rate limit asks.
    func add(_ count: Int) async throws {
        let now = lock.withLock { progress.sent += Int64(count); return progress }
        report(now)
        if let pace, pace > 0 {
            let due = Duration.seconds(Double(now.sent) / Double(pace))
            let spent = max(ContinuousClock.now - start, lock.withLock { slept })
            if due > spent {
                try await sleep(due - spent)
                lock.withLock { slept += due - spent }
            }
        }
    }

    /// Records the server's offset (also as where the run resumed from, while no byte has
    /// gone yet); the progress as it now stands.
    func confirm(_ offset: Int64) -> UploadProgress {
        lock.withLock {
            progress.offset = offset
            if progress.sent == 0 { progress.resumedFrom = offset }
            return progress
        }
    }
}
