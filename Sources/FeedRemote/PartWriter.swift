import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// The response delegate of one clip request. It checks the answer's head (a 206 that continues
/// the part at `offset`, or a 200 that replaces it), records the part's metadata before its first
/// byte, and writes each body chunk to the part on NIO's thread pool.
///
/// The transfer so runs on the event loop and the thread pool alone: a chunk never waits for a
/// Swift task to be scheduled (a player decoding, or a busy cooperative pool, cannot stall it into
/// the idle timeout). Writes are queued in order and the delegate answers at once while less than
/// ``backlog`` bytes wait: AsyncHTTPClient drops the chunks it holds back for a delegate when the
/// connection then closes, so a server that sends part of a clip and hangs up still leaves those
/// bytes in the part, to be resumed. Past the backlog, the queue is the connection's
/// backpressure, so a slow disk slows the download instead of filling memory.
///
/// The part's descriptor is opened by the head and closed by ``finish(sync:)``, which the caller
/// awaits once the request has ended, whichever way.
final class PartWriter: HTTPClientResponseDelegate {
    /// How a request ended that did not fail.
    enum Outcome: Sendable {
        /// The part holds the whole clip.
        case complete(ClipMetadata)
        /// 416 to a resumed request: the part is useless, start again from byte 0.
        case restart
        /// A redirect: the clip is at `Location` (unchecked, possibly relative).
        case redirect(location: String?)
    }

    typealias Response = Outcome

    let url: String
    let part: String
    let partMetadata: String
    /// The part's size when the request was sent; 0 asks for the whole clip.
    let offset: Int64
    /// The most bytes accepted for one clip.
    let limit: Int64
    private let pool: NIOThreadPool
    private let state = NIOLockedValueBox(State())
    /// Bytes queued for writing past which the connection waits for the disk.
    static let backlog = 4 << 20

    private struct State {
        var fd: Int32 = -1
        /// Where this answer's body starts in the clip: `offset` for a 206, 0 for a 200.
        var start: Int64 = 0
        var received: Int64 = 0
        var metadata: ClipMetadata?
        var restart = false
        /// A redirect's `Location` (nil inside: the header was missing).
        var redirect: String??
        /// The last open or write handed to the thread pool: each waits for the one before.
        var pending: EventLoopFuture<Void>?
        /// Bytes handed to the thread pool and not yet written.
        var queued = 0
    }

    init(url: String, part: String, partMetadata: String, offset: Int64, limit: Int64, pool: NIOThreadPool = .singleton) {
        self.url = url
        self.part = part
        self.partMetadata = partMetadata
        self.offset = offset
        self.limit = limit
        self.pool = pool
    }

    func didReceiveHead(task: HTTPClient.Task<Outcome>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let loop = task.eventLoop
        let start: Int64, length: Int64?
        switch Int(head.status.code) {
        case 206 where offset > 0:
            guard let range = head.headers.first(name: "content-range").flatMap(ContentRange.init), range.start == offset else {
                return loop.makeFailedFuture(RemoteError.failed(url: url, reason: "a partial answer that does not continue at byte \(offset)"))
            }
            (start, length) = (offset, range.total)
        case 200:
            (start, length) = (0, head.headers.first(name: "content-length").flatMap(Int64.init))
        case 416 where offset > 0:
            state.withLockedValue { $0.restart = true }
            return loop.makeSucceededVoidFuture()
        case let code where RedirectTarget.statuses.contains(code):
            // Followed by the caller, which checks the target; its body is ignored.
            state.withLockedValue { $0.redirect = .some(head.headers.first(name: "location")) }
            return loop.makeSucceededVoidFuture()
        case let code:
            return loop.makeFailedFuture(RemoteError.status(url: url, code: code, reason: head.status.reasonPhrase))
        }
        if let length, length > limit { return loop.makeFailedFuture(RemoteError.tooLarge(url: url, limit: limit)) }
        let metadata = ClipMetadata(url: url, etag: head.headers.first(name: "etag"), lastModified: head.headers.first(name: "last-modified"), length: length)
        let part = self.part, partMetadata = self.partMetadata
        let opened = pool.runIfActive(eventLoop: loop) { () throws -> Int32 in
            try metadata.write(partMetadata)
            let fd = open(part, O_WRONLY | O_CREAT | O_CLOEXEC | (start == 0 ? O_TRUNC : O_APPEND), 0o644)
            guard fd >= 0 else { throw RemoteError.cache(path: part, reason: String(cString: strerror(errno))) }
            return fd
        }.map { [state] fd in
            state.withLockedValue { $0.fd = fd }
        }
        state.withLockedValue {
            $0.start = start
            $0.metadata = metadata
            $0.pending = opened
        }
        return loop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Outcome>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let loop = task.eventLoop
        let (end, skipped, before) = state.withLockedValue { state in
            state.received += Int64(buffer.readableBytes)
            return (state.start + state.received, state.restart || state.redirect != nil, state.pending)
        }
        guard end <= limit else { return loop.makeFailedFuture(RemoteError.tooLarge(url: url, limit: limit)) }
        guard !skipped, let before else { return loop.makeSucceededVoidFuture() }
        let part = self.part, pool = pool, state = state, count = buffer.readableBytes
        // A copy of its own: the connection reads on meanwhile, and NIO reuses a receive
        // buffer's storage once nobody else holds it (ThreadSanitizer saw the reuse race the write).
        let bytes = ByteBuffer(bytes: buffer.readableBytesView)
        // After the write before it (the first after the open): the descriptor is known by then.
        let written = before.flatMap {
            pool.runIfActive(eventLoop: loop) { () throws in
                try Self.write(bytes, to: state.withLockedValue { $0.fd }, path: part)
            }
        }.always { _ in state.withLockedValue { $0.queued -= count } }
        let queued = state.withLockedValue { state in
            state.pending = written
            state.queued += count
            return state.queued
        }
        return queued > Self.backlog ? written : loop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Outcome>) throws -> Outcome {
        let state = state.withLockedValue { $0 }
        if state.restart { return .restart }
        if let location = state.redirect { return .redirect(location: location) }
        let total = state.start + state.received
        guard var metadata = state.metadata else { throw RemoteError.failed(url: url, reason: "an answer without a head") }
        if let length = metadata.length, total != length {
            throw RemoteError.truncated(url: url, expected: length, received: total)
        }
        metadata.length = total
        return .complete(metadata)
    }

    /// The announced length and the bytes the part holds, when the body ended short of it.
    func shortfall() -> (expected: Int64, received: Int64)? {
        state.withLockedValue { state in
            guard let length = state.metadata?.length, state.start + state.received < length else { return nil }
            return (length, state.start + state.received)
        }
    }

    /// Waits for the queued writes, flushes the part to disk when `sync`, and closes it. A part
    /// that grew past its announced length is removed (it is not that clip). Call it once the
    /// request has ended, whether it completed or failed.
    /// - Throws: ``RemoteError/cache(path:reason:)`` when a write, or the flush, failed.
    func finish(sync: Bool) async throws(RemoteError) {
        let pending = state.withLockedValue { $0.pending }
        var failure: RemoteError?
        do { try await pending?.get() } catch { failure = error as? RemoteError ?? .cache(path: part, reason: "\(error)") }
        let (fd, overlong) = state.withLockedValue { state in
            defer { state.fd = -1 }
            let overlong = state.metadata?.length.map { state.start + state.received > $0 } ?? false
            return (state.fd, overlong)
        }
        if overlong { unlink(part) }
        if fd >= 0 {
            defer { close(fd) }
            if sync && fsync(fd) != 0 { throw .cache(path: part, reason: String(cString: strerror(errno))) }
        }
        if let failure { throw failure }
    }

    /// Writes all of `buffer` to `fd`.
    private static func write(_ buffer: ByteBuffer, to fd: Int32, path: String) throws(RemoteError) {
        try buffer.withUnsafeReadableBytes { (bytes: UnsafeRawBufferPointer) throws(RemoteError) in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw .cache(path: path, reason: String(cString: strerror(errno))) }
                done += n
            }
        }
    }
}
