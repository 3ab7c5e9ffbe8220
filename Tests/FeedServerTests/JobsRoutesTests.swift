import Foundation
import FeedCore
import FeedTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// `/jobs…` in process: what is accepted, what each refusal says and its status. The same
/// refusals from `feed jobs add` are checked in FeedCLITests (JobsAddCommandTests).
@Suite("JobsRoutes")
struct JobsRoutesTests {
    @Test("POST /jobs/stack queues a checked request (202, Location); GET shows it; DELETE cancels once, then 409")
    func lifecycle() async throws {
        let f = try ServerFixture { $0.jobs = 0 }
        try await f.addRecordings(2)
        try await f.test { client in
            let body = #"{"front":{"recording":1},"back":{"recording":2},"options":{"layout":"pip","offset":0.4}}"#
            let created = try await client.execute(uri: "/jobs/stack", method: .post, body: ByteBuffer(text: body))
            #expect(created.status == .accepted && created.headers[.location] == "/jobs/1", "\(created.text)")
            #expect(created.text.contains(#""state":"queued""#) && created.text.contains(#""kind":"stack""#))
            let shown = try await client.execute(uri: "/jobs/1", method: .get)
            #expect(shown.status == .ok && shown.text.contains(#""id":1"#))
            let cancelled = try await client.execute(uri: "/jobs/1", method: .delete)
            #expect(cancelled.status == .ok && cancelled.text.contains(#""state":"cancelled""#))
            let again = try await client.execute(uri: "/jobs/1", method: .delete)
            #expect(again.status == .conflict && again.error?.kind == "conflict" && again.error?.message == "job 1 is cancelled; nothing to cancel")
            let unknown = try await client.execute(uri: "/jobs/abc", method: .get)
            #expect(unknown.status == .notFound && unknown.error?.message == "no job with id abc")
        }
        let stored = try #require(try await f.roll.catalog.job(id: 1))
        #expect(try stored.typedRequest() == .stack(StackJobRequest(front: .recording(1), back: .recording(2), options: {
            var options = StackOptions(output: StackJobRequest.outputPlaceholder)
            options.layout = .pip
            options.offset = 0.4
            return options
        }())), "the row keeps the typed request")
    }

    /// Bad bodies and what each is answered: status, kind and the message FeedCore words.
    static let refusals: [(body: String, status: HTTPResponse.Status, kind: String, message: String)] = [
        ("{", .badRequest, "usage", "stack job request: not JSON"),
        (#"{"front":{"recording":1}}"#, .badRequest, "usage", "stack job request: back: missing"),
        (#"{"front":{"recording":1},"back":{"clip":2}}"#, .badRequest, "usage",
         #"stack job request: back: needs {"recording": ID} or {"upload": "ID"}"#),
        (#"{"front":{"recording":1},"back":{"recording":2},"options":{"crf":"high"}}"#, .badRequest, "usage",
         "stack job request: options.crf: expected an integer"),
        (#"{"front":{"recording":1},"back":{"recording":2},"options":{"layout":"diagonal"}}"#, .unprocessableContent, "invalidData",
         "stack job request: options.layout must be vstack, hstack or pip, not diagonal"),
        (#"{"front":{"recording":1},"back":{"recording":2},"options":{"crf":99}}"#, .unprocessableContent, "invalidData",
         "stack job request: options.crf must be 0…51, not 99"),
        (#"{"front":{"recording":1},"back":{"recording":2},"options":{"sync":"audio","offset":0.5}}"#, .unprocessableContent, "invalidData",
         "stack job request: options.sync cannot be used with offset: it finds the offset"),
        (#"{"front":{"recording":1},"back":{"recording":9}}"#, .notFound, "notFound", "roll: no recording with id 9"),
    ]

    @Test("bad requests are refused before anything is queued, in FeedCore's words, by kind", arguments: 0..<refusals.count)
    func refused(index: Int) async throws {
        let (body, status, kind, message) = Self.refusals[index]
        let f = try ServerFixture { $0.jobs = 0 }
        try await f.addRecordings(2)
        try await f.test { client in
            let response = try await client.execute(uri: "/jobs/stack", method: .post, body: ByteBuffer(text: body))
            #expect(response.status == status, "\(response.text)")
            #expect(response.error?.kind == kind && response.error?.message == message, "\(response.text)")
        }
        #expect(try await f.roll.catalog.jobs(state: nil, limit: nil).isEmpty, "nothing was queued")
    }
}
