import Foundation
import Hummingbird
import Synchronization

/// One line per request on stderr once its body has been written (or the client went):
/// `GET /media/roll/3 206 1048576 12.4ms`: method, path, status, body bytes sent, milliseconds.
struct AccessLogMiddleware: RouterMiddleware {
    /// The current response's byte count, for bodies that bypass the writer (a file sent
    /// with `sendfile`, see ``FileResponse``) to add to.
    @TaskLocal static var bodyBytes: ByteCount?

    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let method = request.method.rawValue
        let path = Self.printable(request.uri.path)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Errors become responses further out; log the status they will have.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            Self.write("\(method) \(path) \(status) - \(Self.milliseconds(since: start))")
            throw error
        }
        let status = response.status.code
        let sent = ByteCount()
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await Self.$bodyBytes.withValue(sent) {
                    try await body.write(writer.map { buffer in sent.add(buffer.readableBytes); return buffer })
                }
            } catch {
                Self.write("\(method) \(path) \(status) \(sent.value) \(Self.milliseconds(since: start)) (client gone)")
                throw error
            }
            Self.write("\(method) \(path) \(status) \(sent.value) \(Self.milliseconds(since: start))")
        }
        return response
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return String(format: "%.1fms", ms)
    }

    /// A request path as one printable line (control bytes escaped).
    static func printable(_ path: String) -> String {
        path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? String(format: "\\x%02X", $0.value) : String($0) }.joined()
    }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Bytes counted from the writer's task.
/// Bytes of a response body, counted as they are written.
final class ByteCount: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
