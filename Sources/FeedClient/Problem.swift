import Foundation
import HTTPTypes

/// An error answer of `feed serve`: RFC 9457 problem details (`application/problem+json`).
public struct Problem: Sendable, Hashable, Codable {
    /// A URI naming the problem type; `about:blank` for feed's.
    public var type: String
    /// The status's reason phrase ("Not Found").
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// One line naming the request and what is wrong.
    public var detail: String
    /// feed's failure kind (`usage`, `notFound`, `conflict`, `invalidData`, …): what the CLI maps
    /// to an exit status; `nil` from a server that is not feed (a proxy).
    public var kind: String?
    /// The answer's `Retry-After`, in seconds (423 Locked, 429, 503); not part of the body.
    public var retryAfter: Int?

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, kind
    }

    /// Creates a problem.
    public init(type: String = "about:blank", title: String, status: Int, detail: String, kind: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.kind = kind
    }

    /// The problem a body holds, or one made from the status when it holds none (`request` names
    /// the request in its detail).
    init(json: [UInt8], status: HTTPResponse.Status, request: String) {
        if let problem = try? JSONDecoder().decode(Problem.self, from: Data(json)) {
            self = problem
        } else {
            let text = String(decoding: json.prefix(200), as: UTF8.self)
                .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            // Transports do not always carry the reason phrase: the status's own then.
            let reason = status.reasonPhrase.isEmpty ? HTTPResponse.Status(code: status.code).reasonPhrase : status.reasonPhrase
            self.init(title: reason, status: status.code,
                      detail: "\(request): HTTP \(status.code)\(reason.isEmpty ? "" : " \(reason)")\(text.isEmpty ? "" : ": \(text)")")
        }
    }
}
