import FeedCore
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Faults on purpose, with `--faults` only, so an app's retry path can be tested: a request
/// header `X-Feed-Fault: status=503`, `delay=MS` or `drop-after=BYTES` (several joined by `;`).
/// `status` answers with that status at once; `delay` waits first; `drop-after` closes the
/// connection once BYTES of the request body (an upload) or of the response body (media)
/// have passed, as a network that fails mid-transfer would.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// What a header asks for.
    struct Fault: Equatable {
        var status: Int?
        var delay: Int?
        var dropAfter: Int?

        /// Parses `status=503; delay=200; drop-after=1000`; nil with the reason for anything else.
        static func parse(_ text: String) -> Result<Fault, APIError> {
            var fault = Fault()
            for part in text.split(whereSeparator: { $0 == ";" || $0 == "," }) {
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
                guard pair.count == 2, let value = Int(pair[1]), value >= 0 else { return .failure(bad(text)) }
                switch pair[0].lowercased() {
                case "status" where (400...599).contains(value): fault.status = value
                case "delay" where value <= 60_000: fault.delay = value
                case "drop-after": fault.dropAfter = value
                default: return .failure(bad(text))
                }
            }
            return .success(fault)
        }

        static func bad(_ text: String) -> APIError {
            APIError(.badRequest, kind: .usage, "X-Feed-Fault: \(text): expected status=400…599, delay=0…60000 (ms) or drop-after=BYTES, joined by ;")
        }
    }

    static let header = HTTPField.Name("X-Feed-Fault")!

    /// The registered reason phrases of 4xx and 5xx (IANA's HTTP status code registry): the
    /// status line's and the problem's `title`. An unregistered code gets its class's name.
    static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency", 425: "Too Early",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        451: "Unavailable For Legal Reasons", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 511: "Network Authentication Required",
    ]

    /// Status `code` with its registered reason phrase, or its class's name.
    static func status(_ code: Int) -> HTTPResponse.Status {
        .init(code: code, reasonPhrase: reasonPhrases[code] ?? (code < 500 ? "Client Error" : "Server Error"))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let text = request.headers[Self.header] else { return try await next(request, context) }
        let fault = try Fault.parse(text).get()
        if let delay = fault.delay { try await Task.sleep(for: .milliseconds(delay)) }
        if let status = fault.status {
            throw APIError(Self.status(status), kind: .fault, "X-Feed-Fault asked for \(status)")
        }
        guard let limit = fault.dropAfter else { return try await next(request, context) }
        let channel = context.channel
        var request = request
        let body = request.body
        request.body = RequestBody(asyncSequence: DroppingSequence(base: body, limit: limit, channel: channel))
        var response = try await next(request, context)
        let original = response.body
        let passed = Counter()
        // Recorded (metrics, access log) as what was sent before the cut, and as a client gone.
        response.body = RequestRecord.streamed(ResponseBody(contentLength: original.contentLength) { writer in
            do {
                try await original.write(writer.map { buffer in
                    let before = passed.add(buffer.readableBytes)
                    if before >= limit { throw Dropped() }
                    guard before + buffer.readableBytes > limit else { return buffer }
                    return buffer.getSlice(at: buffer.readerIndex, length: limit - before) ?? ByteBuffer()
                })
            } catch is Dropped {}
            guard passed.total > limit else { return }
            // What fitted was sent; now close the connection as a failing network would.
            try? await channel.close()
            throw ChannelError.ioOnClosedChannel
        }, context)
        return response
    }
}

/// A request body that closes the connection once `limit` bytes have passed.
private struct DroppingSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer
    let base: Base
    let limit: Int
    let channel: any Channel

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let channel: any Channel
        var passed = 0

        mutating func next() async throws -> ByteBuffer? {
            guard passed < limit || limit == 0 && passed == 0 else {
                try? await channel.close()
                throw ChannelError.ioOnClosedChannel
            }
            guard var buffer = try await base.next() else { return nil }
            if passed + buffer.readableBytes > limit {
                buffer = buffer.getSlice(at: buffer.readerIndex, length: limit - passed) ?? ByteBuffer()
            }
            passed += buffer.readableBytes
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit, channel: channel) }
}

/// Bytes counted across the writer's calls; `add` returns the count before the addition.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ bytes: Int) -> Int { value.add(bytes, ordering: .relaxed).oldValue }
    var total: Int { value.load(ordering: .relaxed) }
}

/// The response body reached `drop-after`.
private struct Dropped: Error {}
