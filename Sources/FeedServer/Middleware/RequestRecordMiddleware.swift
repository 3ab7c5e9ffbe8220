import Foundation
import Hummingbird

/// Records every request once its body has been written, or its client went: in the server's
/// ``ServerMetrics`` (`GET /metrics`) always, and unless `--quiet` as a line of the access log on
/// stderr, `GET /media/roll/3 206 1048576 12.4ms`: method, path, status, body bytes sent,
/// milliseconds. It is the outermost middleware, so what it records is what the client got,
/// errors mapped to problem details included.
struct RequestRecordMiddleware: RouterMiddleware {
    /// The current response's byte count, for bodies that bypass the writer (a file sent
    /// with `sendfile`, see ``FileResponse``) to add to.
    @TaskLocal static var bodyBytes: ByteCount?

    typealias Context = ServerContext

    /// Where requests are counted.
    let metrics: ServerMetrics
    /// Whether each request is also a line on stderr.
    let accessLog: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let record = RequestRecord(request: request, context: context, metrics: metrics, accessLog: accessLog)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // ErrorMiddleware's problem details: made into the response here, as the router would
            // just outside, so that its body is counted and logged like any other.
            response = try error.response(from: request, context: context)
        } catch {
            // Anything else (none should get here) is the router's empty 500.
            record.finish(status: 500, bytes: nil)
            throw error
        }
        let status = response.status.code
        record.responded(status: status)
        let sent = ByteCount()
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await Self.$bodyBytes.withValue(sent) {
                    try await body.write(writer.map { buffer in sent.add(buffer.readableBytes); return buffer })
                }
            } catch {
                record.finish(status: status, bytes: sent.value, gone: true)
                throw error
            }
            record.finish(status: status, bytes: sent.value)
        }
        // A response dropped unwritten (the connection closed first) is recorded when this
        // closure, and so `record`, goes.
        return response
    }

    /// A request path as one printable line (control bytes escaped).
    static func printable(_ path: String) -> String {
        path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? String(format: "\\x%02X", $0.value) : String($0) }.joined()
    }
}
