import FeedCore
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// A stored file served as players need it (RFC 9110): `Accept-Ranges: bytes`, one byte range
/// as 206 with `Content-Range`, 416 for none inside the file, a strong `ETag` and
/// `Last-Modified`, 304 for `If-None-Match` / `If-Modified-Since`, `If-Range`; the body
/// sent from the page cache with `sendfile(2)`, so memory does not grow with file size or the
/// number of clients.
///
/// The path always comes from the catalog or the feed, never from the request.
struct FileResponse {
    let path: String
    let contentType: String
    /// A strong tag for the content; nil derives one from the file's inode, size and mtime.
    var etag: String?

    /// Fresh for a minute, then revalidated with the `ETag`: a player that preloaded a clip's first
    /// bytes (its `preload_bytes`) reuses them when it plays the clip, with no round trip to ask
    /// whether they changed (with `no-cache`, a swipe paid a 304 first); a feed clip edited on
    /// disk shows within the minute. `private`: answers may need a token, for no shared cache.
    static let cacheControl = "private, max-age=60"

    /// The response to `request` (GET or HEAD).
    func response(to request: Request, context: ServerContext, fileIO: FileIO) async throws -> Response {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw RequestFailure.notFound("\(request.uri.path): the file is gone")
        }
        let size = Int64(info.st_size)
        let validators = Validators(etag: etag ?? Self.etag(info), lastModified: Int64(info.st_mtim.tv_sec))
        var headers: HTTPFields = [
            .acceptRanges: "bytes", .eTag: validators.etag, .lastModified: HTTPDate.string(Date(timeIntervalSince1970: Double(validators.lastModified))),
            .contentType: contentType, .cacheControl: Self.cacheControl,
        ]
        let outcome = validators.evaluate(ifNoneMatch: request.headers[.ifNoneMatch], ifModifiedSince: request.headers[.ifModifiedSince],
                                          ifRange: request.headers[.ifRange], now: Int64(Date().timeIntervalSince1970))
        guard case .send(let honourRange) = outcome else {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        let range = honourRange ? ByteRange(header: request.headers[.range], size: size) : .whole
        let first: Int64, last: Int64, status: HTTPResponse.Status
        switch range {
        case .unsatisfiable:
            throw APIError(.rangeNotSatisfiable, kind: .usage, "\(request.headers[.range] ?? ""): no byte range inside the \(size)-byte file",
                           headers: [.contentRange: "bytes */\(size)", .acceptRanges: "bytes"])
        case .whole:
            (first, last, status) = (0, size - 1, .ok)
        case .partial(let from, let to):
            (first, last, status) = (from, to, .partialContent)
            headers[.contentRange] = "bytes \(from)-\(to)/\(size)"
        }
        let length = size == 0 ? 0 : last - first + 1
        headers[.contentLength] = String(length)
        if request.method == .head || length == 0 {
            return Response(status: status, headers: headers)
        }
        if request.headers[FaultMiddleware.header] == nil {
            return Response(status: status, headers: headers,
                            body: RequestRecord.streamed(Self.sendfile(path, from: first, to: last, channel: context.channel,
                                                                       keepAlive: !(request.headers[.connection]?.lowercased().contains("close") ?? false)),
                                                         context))
        }
        // A fault on purpose (drop-after=) counts body bytes as they pass: read and write them.
        let chunk = length <= 1 << 20 ? Int(length) : 128 * 1024
        let file = try await fileIO.loadFile(path: path, range: Int(first)...Int(last), context: context, chunkLength: chunk)
        // FaultMiddleware records these bodies as it cuts them.
        guard length > Int64(chunk) else { return Response(status: status, headers: headers, body: file) }
        // Pace a long body by the connection. A chunk is handed to the connection's event loop as a
        // task, and the writer learns that the socket is full only once that task has run; a reader
        // faster than the loop would otherwise queue the whole file in memory. A round trip to the
        // loop before each chunk means the previous one has reached the socket.
        let eventLoop = context.channel.eventLoop
        let paced = ResponseBody(contentLength: Int(length)) { writer in
            try await file.write(writer.map { chunk in
                try await eventLoop.submit {}.get()
                return chunk
            })
        }
        return Response(status: status, headers: headers, body: paced)
    }

    /// Bytes `first...last` of `path` sent with `sendfile(2)`: the kernel copies them from the
    /// page cache to the socket, no buffer in this process, so memory does not grow with file
    /// size or clients, and the write waits on the socket as it drains.
    ///
    /// Hummingbird's body writer takes only buffers, so the file region is written on the
    /// connection's event loop just below the HTTP/1 encoder, after the head (written, and so
    /// queued on that loop, before the body closure runs) and before the end of the message
    /// (which adds no bytes: the length was announced in `Content-Length`). `keepAlive` is false
    /// when the connection closes after this response.
    static func sendfile(_ path: String, from first: Int64, to last: Int64, channel: any Channel, keepAlive: Bool) -> ResponseBody {
        ResponseBody(contentLength: Int(last - first + 1)) { writer in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw RequestFailure.notFound("the file is gone") }
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
            let region = FileRegion(fileHandle: handle, readerIndex: Int(first), endIndex: Int(last) + 1)
            let sent = channel.eventLoop.flatSubmit {
                do {
                    let encoder = try channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
                    return encoder.writeAndFlush(NIOAny(IOData.fileRegion(region)))
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
            sent.whenComplete { _ in try? handle.close() }
            // On a connection that stays open, the end of the message can follow at once: the
            // region is queued first, and the end waits while the socket is full, so the next
            // request is read only once this body has mostly gone (one hop fewer per request:
            // 0.72 -> 0.82 x nginx's requests/s). A connection that closes after this response
            // (Connection: close, or the server stopping) would drop what is still queued, so
            // there the body is awaited first.
            if !keepAlive || Task.isShuttingDownGracefully { try await sent.get() }
            RequestRecord.bodyBytes?.add(Int(last - first + 1))
            try await writer.finish(nil)
        }
    }

    /// `"<inode>-<size>-<mtime ns>"` in hex: changes whenever the file is replaced or rewritten.
    static func etag(_ info: stat) -> String {
        // Wrapping: a file dated past 2262 passes Int64's nanoseconds; a tag only has to change.
        let nanos = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        return "\"\(String(info.st_ino, radix: 16))-\(String(info.st_size, radix: 16))-\(String(nanos, radix: 16))\""
    }

    /// The media type of a file by its extension (containers feed plays and serves).
    static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "webm": "video/webm"
        case "mkv": "video/x-matroska"
        case "avi": "video/x-msvideo"
        case "ts": "video/mp2t"
        case "flv": "video/x-flv"
        case "m3u8": "application/vnd.apple.mpegurl"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "gif": "image/gif"
        default: "application/octet-stream"
        }
    }
}
