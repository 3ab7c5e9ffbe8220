import AsyncHTTPClient
import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// One clip's transfer into its `.part` file: resumed with `Range` and `If-Range` when a part
/// with a validator is there, restarted when the server sends the whole body instead (200:
/// it ignores ranges, or the clip changed), restarted once on 416. The part's metadata is
/// written before its first byte, so an interrupted transfer can be resumed by the next run.
/// There is no deadline for the whole transfer, since a clip may be large and the link slow: it
/// fails when connecting takes more than 10 s or no byte arrives for `timeout` seconds (like
/// curl's `--speed-time`).
struct ClipDownload {
    let url: URL
    let part: String
    let partMetadata: String
    /// The most bytes accepted for one clip.
    let limit: Int64
    /// Seconds without a byte before the transfer counts as stalled.
    let timeout: TimeInterval

    /// Transfers the rest of the clip into `part`; its metadata once complete.
    /// - Throws: ``RemoteError``: status, size, a stall, a body shorter than announced (the part
    ///   is kept to be resumed), or a local write failure.
    func run() async throws(RemoteError) -> ClipMetadata {
        let shown = url.absoluteString
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .follow(max: HTTPFetch.maxRedirects, allowCycles: false)
        configuration.timeout = .init(connect: .seconds(Int64(min(timeout, 10))), read: .seconds(Int64(max(timeout, 1))))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let metadata = try await transfer(client: client)
            try? await client.shutdown()
            return metadata
        } catch {
            try? await client.shutdown()
            if let error = error as? RemoteError { throw error }
            if let error = error as? HTTPClientError {
                switch error {
                case .redirectLimitReached, .redirectCycleDetected: throw .tooManyRedirects(url: shown)
                case .connectTimeout: throw .timedOut(url: shown, seconds: Int(min(timeout, 10)))
                case .deadlineExceeded, .readTimeout: throw .stalled(url: shown, seconds: Int(timeout))
                default: throw .failed(url: shown, reason: "\(error)")
                }
            }
            throw .failed(url: shown, reason: "\(error)")
        }
    }

    private func transfer(client: HTTPClient) async throws -> ClipMetadata {
        let shown = url.absoluteString
        var saved = ClipMetadata.read(partMetadata)
        var offset = Self.size(part)
        if saved?.url != shown || saved?.validator == nil { offset = 0 }
        var restarted = false
        while true {
            var request = HTTPClientRequest(url: shown)
            request.headers.add(name: "User-Agent", value: "feed/0.1")
            if offset > 0, let validator = saved?.validator {
                request.headers.add(name: "Range", value: "bytes=\(offset)-")
                request.headers.add(name: "If-Range", value: validator)
            }
            let response = try await client.execute(request, deadline: .distantFuture)
            let code = Int(response.status.code)
            let etag = response.headers.first(name: "etag"), modified = response.headers.first(name: "last-modified")
            var length: Int64?
            switch code {
            case 206 where offset > 0:
                guard let range = response.headers.first(name: "content-range").flatMap(ContentRange.init), range.start == offset else {
                    throw RemoteError.failed(url: shown, reason: "a partial answer that does not continue at byte \(offset)")
                }
                length = range.total
            case 200:
                offset = 0
                length = response.headers.first(name: "content-length").flatMap(Int64.init)
            case 416 where offset > 0 && !restarted:
                restarted = true
                offset = 0
                saved = nil
                continue
            default:
                throw RemoteError.status(url: shown, code: code, reason: response.status.reasonPhrase)
            }
            if let length, length > limit { throw RemoteError.tooLarge(url: shown, limit: limit) }
            let metadata = ClipMetadata(url: shown, etag: etag, lastModified: modified, length: length)
            try metadata.write(partMetadata)
            let received = try await write(response.body, at: offset)
            let total = offset + received
            if let length, total != length {
                if total > length { unlink(part) }
                throw RemoteError.truncated(url: shown, expected: length, received: total)
            }
            return ClipMetadata(url: shown, etag: etag, lastModified: modified, length: total)
        }
    }

    /// Appends the body to the part (truncating it first when `offset` is 0), flushed to disk.
    private func write(_ body: HTTPClientResponse.Body, at offset: Int64) async throws -> Int64 {
        let fd = open(part, O_WRONLY | O_CREAT | O_CLOEXEC | (offset == 0 ? O_TRUNC : O_APPEND), 0o644)
        guard fd >= 0 else { throw RemoteError.cache(path: part, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var received: Int64 = 0
        for try await buffer in body {
            received += Int64(buffer.readableBytes)
            guard offset + received <= limit else { throw RemoteError.tooLarge(url: url.absoluteString, limit: limit) }
            try buffer.withUnsafeReadableBytes { (bytes: UnsafeRawBufferPointer) throws(RemoteError) in
                var done = 0
                while done < bytes.count {
                    let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw .cache(path: part, reason: String(cString: strerror(errno))) }
                    done += n
                }
            }
        }
        guard fsync(fd) == 0 else { throw RemoteError.cache(path: part, reason: String(cString: strerror(errno))) }
        return received
    }

    /// The size of the file at `path`, 0 when it is missing.
    static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
struct ContentRange {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let range = parts[0].split(separator: "-", maxSplits: 1)
        guard range.count == 2, let start = Int64(range[0]), let end = Int64(range[1]), start <= end else { return nil }
        self.start = start
        self.end = end
        total = parts[1] == "*" ? nil : Int64(parts[1])
        if parts[1] != "*" && total == nil { return nil }
    }
}
