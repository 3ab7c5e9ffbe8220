import Foundation
import Hummingbird
import Logging
import Synchronization

/// One request between its arrival and its response's last byte: counted in flight from its
/// creation, and recorded exactly once, by ``finish(status:bytes:gone:)`` or, for a streamed
/// response that was never written (its connection closed first), when it is released.
final class RequestRecord: Sendable {
    /// The current streamed body's byte count, for bytes that bypass the writer (a file sent
    /// with `sendfile`, see ``FileResponse``) to add to.
    @TaskLocal static var bodyBytes: ByteCount?

    private let method: String
    private let path: String
    private let endpoint: EndpointPath
    private let start = ContinuousClock.now
    private let metrics: ServerMetrics
    /// The request's access logger (nil: no access log).
    private let logger: Logger?
    private let done = Atomic<Bool>(false)
    /// The status the route answered with, for a response released unwritten.
    private let status = Atomic<Int>(0)
    /// Whether the response's body streams, recorded once written (``streamed(_:_:)``).
    private let streamed = Atomic<Bool>(false)

    init(request: Request, context: ServerContext, metrics: ServerMetrics, accessLogger: Logger?) {
        method = request.method.rawValue
        path = request.uri.path
        endpoint = context.coreContext.endpointPath
        self.metrics = metrics
        // A logger per request: the access log's, with the request's id as Hummingbird gave it.
        logger = accessLogger.map { base in
            var logger = base
            logger[metadataKey: "hb.request.id"] = context.logger[metadataKey: "hb.request.id"]
            return logger
        }
        metrics.started()
    }

    /// `body`, recorded once its last byte is written or its client went: for a body that
    /// streams (a file, an event stream), made while the route runs. With no record (a
    /// context made elsewhere), `body` as it is.
    static func streamed(_ body: ResponseBody, _ context: ServerContext) -> ResponseBody {
        guard let record = context.record else { return body }
        record.streamed.store(true, ordering: .relaxed)
        return ResponseBody(contentLength: body.contentLength) { writer in
            let sent = ByteCount()
            do {
                try await $bodyBytes.withValue(sent) {
                    try await body.write(writer.map { buffer in sent.add(buffer.readableBytes); return buffer })
                }
            } catch {
                record.finish(status: record.status.load(ordering: .relaxed), bytes: sent.value, gone: true)
                throw error
            }
            record.finish(status: record.status.load(ordering: .relaxed), bytes: sent.value)
        }
    }

    /// Whether the route's body streams: it is recorded once written, not when the route answers.
    var streams: Bool { streamed.load(ordering: .relaxed) }

    /// The route answered with `status`; its body is yet to be written.
    func responded(status: Int) {
        self.status.store(status, ordering: .relaxed)
    }

    /// Records the request (the first call only): `bytes` nil when no body was begun.
    func finish(status: Int, bytes: Int?, gone: Bool = false) {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // The router names the route it took before any middleware runs, so a request refused
        // by one (401, 403, 429) is counted under its route too.
        let route = endpoint.value.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ServerMetrics.unmatched
        metrics.finished(method: method, route: route, status: status, bytes: bytes ?? 0, seconds: seconds)
        guard let logger else { return }
        let line = "\(method) \(RequestRecordMiddleware.printable(path)) \(status) \(bytes.map(String.init) ?? "-") "
            + String(format: "%.1fms", seconds * 1000) + (gone ? " (client gone)" : "")
        logger.info("\(line)")
    }

    deinit {
        if !done.load(ordering: .acquiring) { finish(status: status.load(ordering: .relaxed), bytes: 0, gone: true) }
    }
}
