import Foundation
import Hummingbird
import Logging

/// Records every request in the server's ``ServerMetrics`` (`GET /metrics`) and, unless
/// `--quiet`, as a line of the access log on stderr, `GET /media/roll/3 206 1048576 12.4ms`:
/// method, path, status, body bytes sent, milliseconds. It is the outermost middleware, so what
/// it records is what the client got, errors mapped to problem details included.
///
/// A body in one buffer (JSON, problem details, a playlist) is recorded when the route answers,
/// its duration ending there: its bytes are its length, and wrapping it would cost Hummingbird's
/// single write of head, body and end (two more hops to the event loop: /videos answered 16 %
/// fewer requests a second). A body that streams (a file, an event stream) is made through
/// ``RequestRecord/streamed(_:_:)`` and recorded once its last byte is written or its client went.
struct RequestRecordMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// Where requests are counted.
    let metrics: ServerMetrics
    /// Where each request is also a line (nil: nowhere).
    let accessLogger: Logger?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let record = RequestRecord(request: request, context: context, metrics: metrics, accessLogger: accessLogger)
        // HEAD's body, the GET's here, is never sent (and a streamed one never runs).
        let head = request.method == .head
        var context = context
        context.record = record
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // ErrorMiddleware's problem details: made into the response here, as the router would
            // just outside, so that it is recorded like any other.
            let answer: Response
            do {
                answer = try error.response(from: request, context: context)
            } catch {
                record.finish(status: 500, bytes: nil)
                throw error
            }
            record.finish(status: answer.status.code, bytes: head ? 0 : answer.body.contentLength ?? 0)
            return answer
        } catch {
            // Anything else (none should get here) is the router's empty 500.
            record.finish(status: 500, bytes: nil)
            throw error
        }
        record.responded(status: response.status.code)
        if head || !record.streams {
            record.finish(status: response.status.code, bytes: head ? 0 : response.body.contentLength ?? 0)
        }
        return response
    }

    /// A request path as one printable line (control bytes escaped).
    static func printable(_ path: String) -> String {
        path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? String(format: "\\x%02X", $0.value) : String($0) }.joined()
    }
}
