import FeedClient
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A tus server in memory, as a `ClientTransport`: the uploader's requests reach it without a
/// socket. ``cutAfter`` makes the next PATCH fail after that many bytes of its body (the server
/// keeps them, as feed's does), ``down`` fails every request as a refused connection would.
final class MemoryTusServer: ClientTransport, @unchecked Sendable {
    struct Refused: Error {}
    private let lock = NSLock()
    private var uploads: [String: (length: Int64, bytes: [UInt8])] = [:]
    private var next = 1
    var cutAfter: Int?
    var down = false
    /// Goes ``down`` once a PATCH has brought an upload to this many bytes (after answering it).
    var downAt: Int?
    var log: [String] = []
    /// What a PATCH answers as `Upload-Offset`, when set: a server that lies.
    var patchOffset: String?
    /// The last `Upload-Metadata` a POST carried, as it reached the server.
    var metadata: String?
    /// How many status requests of a complete upload say `processing` before one says `done`.
    var processingPolls = 0

    func bytes(of id: String) -> [UInt8] { lock.withLock { uploads[id]?.bytes ?? [] } }
    func forget(_ id: String) { lock.withLock { uploads[id] = nil } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let path = request.path ?? ""
        lock.withLock { log.append("\(request.method.rawValue) \(path)") }
        if lock.withLock({ down }) { throw Refused() }
        let id = String(path.split(separator: "/").last ?? "")
        switch (request.method, operationID) {
        case (.post, _):
            let length = Int64(request.headerFields[HTTPField.Name("Upload-Length")!] ?? "") ?? -1
            lock.withLock { metadata = request.headerFields[HTTPField.Name("Upload-Metadata")!] }
            let created = lock.withLock { () -> String in
                defer { next += 1 }
                uploads["u\(next)"] = (length, [])
                return "u\(next)"
            }
            return (HTTPResponse(status: .created, headerFields: [.location: "/uploads/\(created)", HTTPField.Name("Tus-Resumable")!: "1.0.0"]), nil)
        case (.head, _):
            guard let upload = lock.withLock({ uploads[id] }) else { return (HTTPResponse(status: .notFound), nil) }
            return (HTTPResponse(status: .ok, headerFields: [HTTPField.Name("Upload-Offset")!: "\(upload.bytes.count)",
                                                             HTTPField.Name("Upload-Length")!: "\(upload.length)"]), nil)
        case (.patch, _):
            let offset = Int(request.headerFields[HTTPField.Name("Upload-Offset")!] ?? "") ?? -1
            guard lock.withLock({ uploads[id]?.bytes.count }) == offset else {
                return (HTTPResponse(status: .conflict, headerFields: [.contentType: "application/problem+json"]),
                        HTTPBody(#"{"type":"about:blank","title":"Conflict","status":409,"detail":"offset","kind":"conflict"}"#))
            }
            let cut = lock.withLock { () -> Int? in defer { cutAfter = nil }; return cutAfter }
            var received = 0
            for try await chunk in body ?? HTTPBody() {
                let take = cut.map { max(0, min(chunk.count, $0 - received)) } ?? chunk.count
                lock.withLock { uploads[id]!.bytes += chunk.prefix(take) }
                received += take
                if let cut, received >= cut { throw Refused() }
            }
            let now = lock.withLock { () -> Int in
                let count = uploads[id]!.bytes.count
                if let downAt, count >= downAt { down = true; self.downAt = nil }
                return count
            }
            let said = lock.withLock { patchOffset } ?? "\(now)"
            return (HTTPResponse(status: .noContent, headerFields: [HTTPField.Name("Upload-Offset")!: said]), nil)
        case (.get, _):
            guard let upload = lock.withLock({ uploads[id] }) else { return (HTTPResponse(status: .notFound), nil) }
            let complete = Int64(upload.bytes.count) == upload.length
            let processing = complete && lock.withLock { () -> Bool in
                guard processingPolls > 0 else { return false }
                processingPolls -= 1
                return true
            }
            let done = complete && !processing
            let json = #"{"id":"\#(id)","state":"\#(done ? "done" : processing ? "processing" : "uploading")","length":\#(upload.length),"offset":\#(upload.bytes.count),"#
                + #""created":"2026-11-25T10:00:00.000Z","expires":"2026-11-26T10:00:00Z","recording_id":\#(done ? "7" : "null")}"#
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(json))
        default:
            return (HTTPResponse(status: .methodNotAllowed), nil)
        }
    }
}
