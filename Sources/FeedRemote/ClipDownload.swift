import FeedCore
import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One clip's transfer into its `.part` file (each answer handled by a ``PartWriter``): resumed
/// with `Range` and `If-Range` when a part with a validator is there, restarted when the server
/// sends the whole body instead (200: it ignores ranges, or the clip changed), restarted once on
/// 416. The part's metadata is
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
        let shown = URLCredentials.redacted(url: url.absoluteString)
        if let problem = RedirectTarget.problem(url) { throw .failed(url: shown, reason: problem) }
        var configuration = HTTPClient.Configuration()
        // Followed in `transfer`, each target checked (see RedirectTarget).
        configuration.redirectConfiguration = .disallow
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
                default: throw .failed(url: shown, reason: NetworkFailure.reason(error))
                }
            }
            throw .failed(url: shown, reason: NetworkFailure.reason(error))
        }
    }

    private func transfer(client: HTTPClient) async throws -> ClipMetadata {
        let shown = URLCredentials.redacted(url: url.absoluteString)
        let saved = ClipMetadata.read(partMetadata)
        var offset = Self.size(part)
        if saved?.url != shown || saved?.validator == nil { offset = 0 }
        // The part and its metadata stay the first URL's (the cache's key); requests go where redirects lead.
        var current = url, seen: Set<String> = [shown]
        while true {
            var request = try HTTPClient.Request(url: current.absoluteString)
            request.headers.add(name: "User-Agent", value: "feed/0.1")
            if offset > 0, let validator = saved?.validator {
                request.headers.add(name: "Range", value: "bytes=\(offset)-")
                request.headers.add(name: "If-Range", value: validator)
            }
            let writer = PartWriter(url: shown, part: part, partMetadata: partMetadata, offset: offset, limit: limit)
            let task = client.execute(request: request, delegate: writer)
            let outcome: PartWriter.Outcome
            do {
                outcome = try await withTaskCancellationHandler { try await task.get() } onCancel: { task.cancel() }
            } catch {
                try? await writer.finish(sync: false)
                // A connection closed before the announced length is a truncated body; a stall
                // stays a stall.
                let stalled = (error as? HTTPClientError).map { $0 == .readTimeout || $0 == .deadlineExceeded } ?? false
                if !stalled, let short = writer.shortfall() {
                    throw RemoteError.truncated(url: shown, expected: short.expected, received: short.received)
                }
                throw error
            }
            switch outcome {
            case let .redirect(location):
                try await writer.finish(sync: false)
                let next = try RedirectTarget.next(from: current, location: location)
                guard seen.count <= HTTPFetch.maxRedirects, seen.insert(next.absoluteString).inserted else { throw RemoteError.tooManyRedirects(url: shown) }
                current = next
            case .restart:
                // 416: the part is past the clip's end (it changed without a validator we could
                // send): once more from byte 0, where a 416 is an error.
                try await writer.finish(sync: false)
                offset = 0
            case let .complete(metadata):
                try await writer.finish(sync: true)
                return metadata
            }
        }
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
