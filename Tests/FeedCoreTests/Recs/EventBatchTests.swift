import Foundation
import Testing
@testable import FeedRecs

/// ``EventBatch``: what `POST /events` and `feed events import` read.
@Suite("EventBatch")
struct EventBatchTests {
    static func parse(_ text: String, options: EventBatch.Options = .init()) throws(RecsError) -> [FeedEvent] {
        try EventBatch.parse(Array(text.utf8), options: options)
    }

    @Test("a JSON array and NDJSON give the same events, every field read")
    func bothShapes() throws {
        let events = [
            #"{"id":"a1","type":"watch","video":1000000000001,"watched_ms":4500,"duration_ms":9000,"at":"2026-12-02T16:44:20.250Z","extra":true}"#,
            #"{"id":"a2","type":"not_interested","video":7,"device":"phone-1","at":"2026-12-02T17:44:20+01:00"}"#,
        ]
        let array = try Self.parse("[" + events.joined(separator: ",") + "]")
        let lines = try Self.parse(events.joined(separator: "\n") + "\n\n")
        #expect(array == lines)
        #expect(array.count == 2)
        #expect(array[0] == FeedEvent(id: "a1", type: .watch, video: 1_000_000_000_001, at: Date(timeIntervalSince1970: 1_796_229_860.25),
                                      watchedMs: 4500, durationMs: 9000))
        #expect(array[0].watchRatio == 0.5)
        #expect(array[1].type == .notInterested && array[1].device == "phone-1")
        #expect(array[1].at == Date(timeIntervalSince1970: 1_796_229_860), "an offset is taken into account")
    }

    @Test("the first wrong event is named with its place, id and field", arguments: [
        (#"[{"id":"a","type":"watch","video":3,"watched_ms":1},{"id":"b","type":"watch","video":3}]"#,
         #"event 1 (id "b"): watched_ms is missing (a watch says how long it played)"#),
        (#"[{"id":"a","type":"stare","video":3}]"#,
         #"event 0 (id "a"): type must be one of impression, watch, complete, replay, skip, like, share, bookmark, comment, follow, not_interested, hide_creator, not "stare""#),
        (#"[{"type":"like","video":3}]"#, "event 0: id is missing"),
        (#"[{"id":"a","type":"like","video":-3}]"#, #"event 0 (id "a"): video must be a video's id (a positive integer), not -3"#),
        (#"[{"id":"a","type":"like","video":3,"at":"yesterday"}]"#,
         #"event 0 (id "a"): at must be an RFC 3339 time such as 2026-12-02T16:44:20Z, not "yesterday""#),
        (#"[{"id":"a","type":"watch","video":3,"watched_ms":1.5}]"#,
         #"event 0 (id "a"): watched_ms must be whole milliseconds, 0 to 86400000 (a day), not 1.5"#),
        (#"[{"id":"a","type":"like","video":3,"user":"eve"}]"#, #"event 0 (id "a"): user cannot be sent: a request's events are its caller's"#),
        (#"[7]"#, "event 0: the event must be a JSON object, not 7"),
    ])
    func refusals(body: String, message: String) {
        do {
            _ = try Self.parse(body)
            Issue.record("\(body) was taken")
        } catch {
            #expect(error.description == message)
            #expect(error.kind == .usage)
        }
    }

    @Test("over 1,000 events or 1 MiB is too large; nothing, or no JSON, is no batch")
    func limits() {
        let one = #"{"id":"x","type":"like","video":1}"#
        let many = (0...EventBatch.maxEvents).map { one.replacingOccurrences(of: "\"x\"", with: "\"\($0)\"") }.joined(separator: "\n")
        #expect(throws: RecsError.tooManyEvents(1001)) { try Self.parse(many) }
        #expect((try? Self.parse(many, options: .init(allowsUser: true, maxEvents: nil)))?.count == 1001, "an import file has no limit")
        let big = "[" + String(repeating: " ", count: EventBatch.maxBytes) + one + "]"
        #expect(throws: RecsError.batchTooLarge(big.utf8.count)) { try Self.parse(big) }
        #expect(RecsError.tooManyEvents(1001).kind == .tooLarge)
        #expect(throws: RecsError.notEvents("the body is empty")) { try Self.parse("  \n") }
        #expect((try? Self.parse("[]")) == nil)
        do {
            _ = try Self.parse("{\"id\":1\n{oops")
            Issue.record("taken")
        } catch {
            #expect(error.description.hasPrefix("the events are not a JSON array of objects or NDJSON: line 1 is not valid JSON"))
        }
    }

    @Test("RFC 3339 times: zones, fractions and what is no time", arguments: [
        ("2026-12-02T16:44:20Z", 1_796_229_860.0), ("2026-12-02t16:44:20.5z", 1_796_229_860.5),
        ("2026-12-02T18:44:20+02:00", 1_796_229_860.0), ("1970-01-01T00:00:00Z", 0), ("1969-12-31T23:59:59Z", -1),
        ("2000-02-29T00:00:00Z", 951_782_400),
    ])
    func times(text: String, seconds: Double) {
        #expect(RFC3339.date(text)?.timeIntervalSince1970 == seconds)
    }

    @Test("no time", arguments: ["2026-12-02", "2026-13-02T16:44:20Z", "2026-12-02T16:44:20", "2026-12-02T16:44:20.Z", "2026-12-02T16:44:20Z junk"])
    func notTimes(text: String) {
        #expect(RFC3339.date(text) == nil)
    }
}
