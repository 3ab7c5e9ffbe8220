import FeedTestSupport
import Foundation
import Testing
import FeedCore

/// The one table between failure kinds and HTTP statuses: docs/errors.md's column, and read back.
@Suite("FailureKind and HTTP statuses")
struct FailureKindHTTPTests {
    @Test("every kind's status is the one docs/errors.md gives it")
    func documented() throws {
        let text = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        var documented: [FailureKind: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let kind = FailureKind(rawValue: cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))) else { continue }
            documented[kind] = cells[3]
        }
        for kind in FailureKind.allCases {
            let expected = kind == .fault ? "as asked" : String(kind.httpStatus)
            #expect(documented[kind] == expected, "\(kind)")
        }
    }

    @Test("a status read back gives a kind that answers with the same status (410 as 404, 423 as 409); other 4xx are usage, other statuses io")
    func readBack() {
        for kind in FailureKind.allCases {
            #expect(FailureKind(httpStatus: kind.httpStatus).httpStatus == kind.httpStatus, "\(kind)")
        }
        #expect(FailureKind(httpStatus: 404) == .notFound && FailureKind(httpStatus: 410) == .notFound)
        #expect(FailureKind(httpStatus: 423) == .conflict && FailureKind(httpStatus: 503) == .unavailable)
        #expect(FailureKind(httpStatus: 418) == .usage && FailureKind(httpStatus: 431) == .usage)
        #expect(FailureKind(httpStatus: 502) == .io && FailureKind(httpStatus: 500) == .io && FailureKind(httpStatus: 302) == .io)
    }
}
