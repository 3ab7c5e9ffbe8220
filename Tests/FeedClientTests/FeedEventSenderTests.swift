import FeedClient
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// The event sender's batching and retries against an in-memory `POST /events`: a batch that
/// failed goes again with the same ids, a refused one is dropped, one that keeps failing stays
/// queued; waits through a sleep the test records (no real sleeps).
@Suite("FeedEventSender")
struct FeedEventSenderTests {
    /// `POST /events` in memory, as a `ClientTransport`: it keeps each batch's events as they
    /// reached it, and answers each attempt from ``answers`` (first first; once empty, 200).
    final class MemoryEventsServer: ClientTransport, @unchecked Sendable {
        /// An attempt's answer: a status with problem details, or a connection refused.
        enum Answer { case status(Int), refused }
        struct Refused: Error {}
        private let lock = NSLock()
        private var answersLeft: [Answer] = []
        private var seen: [[[String: Any]]] = []
        private var ids: Set<String> = []

        init(_ answers: [Answer] = []) { answersLeft = answers }

        /// Every attempt's events, as JSON objects, in the order they came.
        var attempts: [[[String: Any]]] { lock.withLock { seen } }
        /// Every attempt's event ids.
        var attemptIDs: [[String]] { attempts.map { $0.map { $0["id"] as? String ?? "?" } } }

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            #expect(request.method == .post && request.path == "/events" && operationID == "sendEvents")
            let bytes = try await [UInt8](collecting: body ?? HTTPBody(), upTo: 1 << 20)
            let events = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
            let answer = lock.withLock { () -> Answer? in
                seen.append(events)
                return answersLeft.isEmpty ? nil : answersLeft.removeFirst()
            }
            switch answer {
            case .refused:
                throw Refused()
            case let .status(code):
                let problem = #"{"type":"about:blank","title":"Refused","status":\#(code),"detail":"no, \#(code)","kind":"usage"}"#
                return (HTTPResponse(status: .init(code: code), headerFields: [.contentType: "application/problem+json"]), HTTPBody(problem))
            case nil:
                // Stored: what a real server answers, ids it saw before counted as duplicates.
                let fresh = lock.withLock { events.filter { ids.insert($0["id"] as? String ?? "").inserted }.count }
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                        HTTPBody(#"{"accepted":\#(fresh),"duplicates":\#(events.count - fresh)}"#))
            }
        }
    }

    /// What the sender reported, in order.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [EventDelivery] = []
        var all: [EventDelivery] { lock.withLock { seen } }
        func add(_ delivery: EventDelivery) { lock.withLock { seen.append(delivery) } }
    }

    static func client(_ server: MemoryEventsServer) -> FeedClient {
        FeedClient(serverURL: URL(string: "http://feed.test")!, transport: server)
    }

    /// `count` events of one video, each with its own id.
    static func events(_ count: Int, video: Int64 = 1_000_000_000_001) -> [Components.Schemas.Event] {
        (0..<count).map { index in
            index % 2 == 0 ? Components.Schemas.Event(.impression, video: video + Int64(index))
                : Components.Schemas.Event(.watch, video: video + Int64(index), watchedMs: 1_000 * index, durationMs: 12_000)
        }
    }

    @Test("a batch whose first attempt failed is sent again, after the retry delay, with the same ids; the server stores it once")
    func retriesWithTheSameIDs() async throws {
        let server = MemoryEventsServer([.refused])
        let waits = Waits(), reports = Reports()
        let sender = FeedEventSender(client: Self.client(server), device: "phone-1", retryDelay: .milliseconds(250),
                                     report: { reports.add($0) }, sleep: { await waits.add($0) })
        let events = Self.events(3)
        for event in events { await sender.send(event) }
        #expect(await sender.flush())
        let ids = events.map(\.id)
        #expect(Set(ids).count == 3, "each event has an id of its own: \(ids)")
        #expect(server.attemptIDs == [ids, ids], "\(server.attemptIDs)")
        #expect(await waits.all == [.milliseconds(250)])
        // The retry is the same batch byte for byte, not made again: the same times, the device stamped.
        let first = try #require(server.attempts.first), second = try #require(server.attempts.last)
        #expect(first.map { $0["at"] as? String } == second.map { $0["at"] as? String })
        #expect(second.allSatisfy { $0["device"] as? String == "phone-1" })
        #expect(second[1]["type"] as? String == "watch" && second[1]["watched_ms"] as? Int == 1_000 && second[0]["watched_ms"] == nil)
        guard case let .sent(count, accepted, duplicates) = try #require(reports.all.last) else {
            Issue.record("\(reports.all)"); return
        }
        #expect(count == 3 && accepted == 3 && duplicates == 0)
        #expect(await sender.queued.isEmpty)

        // Sent again (an app that kept them over a relaunch): the server counts them as duplicates.
        for event in events { await sender.send(event) }
        #expect(await sender.flush())
        guard case let .sent(_, again, twice) = try #require(reports.all.last) else { Issue.record("\(reports.all)"); return }
        #expect(again == 0 && twice == 3)
    }

    @Test("full batches go out by themselves, in order; flush sends the short rest and waits for it")
    func batches() async throws {
        let server = MemoryEventsServer()
        let sender = FeedEventSender(client: Self.client(server), batchSize: 2, sleep: { _ in Issue.record("no retry expected") })
        let events = Self.events(5)
        for event in events { await sender.send(event) }
        #expect(await sender.flush())
        #expect(server.attemptIDs == [[events[0].id, events[1].id], [events[2].id, events[3].id], [events[4].id]], "\(server.attemptIDs)")
        #expect(await sender.queued.isEmpty)
        // Nothing queued: a flush sends nothing.
        #expect(await sender.flush())
        #expect(server.attempts.count == 3)
    }

    @Test("a 4xx other than 408 and 429 is not retried: the batch is dropped and reported, and the next one goes")
    func refusedIsDropped() async throws {
        let server = MemoryEventsServer([.status(400)])
        let reports = Reports()
        let sender = FeedEventSender(client: Self.client(server), batchSize: 2, report: { reports.add($0) },
                                     sleep: { _ in Issue.record("a 400 is not retried") })
        let events = Self.events(4)
        for event in events { await sender.send(event) }
        #expect(await sender.flush())
        #expect(server.attemptIDs == [[events[0].id, events[1].id], [events[2].id, events[3].id]], "\(server.attemptIDs)")
        guard case let .refused(dropped, error) = try #require(reports.all.first) else { Issue.record("\(reports.all)"); return }
        #expect(dropped.map(\.id) == [events[0].id, events[1].id])
        guard case let .server(status, problem) = error else { Issue.record("\(error)"); return }
        #expect(status == 400 && problem.detail == "no, 400")
        #expect(await sender.queued.isEmpty)
    }

    @Test("408, 429 and 5xx are retried, each wait twice the last up to maxRetryDelay")
    func backoff() async throws {
        let server = MemoryEventsServer([.status(503), .status(429), .status(408), .status(500), .refused])
        let waits = Waits()
        let sender = FeedEventSender(client: Self.client(server), retries: 5, retryDelay: .milliseconds(100),
                                     maxRetryDelay: .milliseconds(500), sleep: { await waits.add($0) })
        let events = Self.events(2)
        for event in events { await sender.send(event) }
        #expect(await sender.flush())
        #expect(await waits.all == [100, 200, 400, 500, 500].map { Duration.milliseconds($0) })
        #expect(server.attemptIDs == Array(repeating: events.map(\.id), count: 6))
    }

    @Test("a batch still failing after the retries stays queued, first, with its ids, for the next flush")
    func postponed() async throws {
        let server = MemoryEventsServer([.refused, .refused, .refused])
        let waits = Waits(), reports = Reports()
        let sender = FeedEventSender(client: Self.client(server), retries: 2, retryDelay: .milliseconds(10),
                                     report: { reports.add($0) }, sleep: { await waits.add($0) })
        let events = Self.events(3)
        for event in events { await sender.send(event) }
        #expect(await sender.flush() == false)
        #expect(server.attempts.count == 3)
        #expect(await waits.all == [.milliseconds(10), .milliseconds(20)])
        guard case let .postponed(count, error) = try #require(reports.all.last) else { Issue.record("\(reports.all)"); return }
        guard case .transport = error else { Issue.record("\(error)"); return }
        #expect(count == 3)
        #expect(await sender.queued.map(\.id) == events.map(\.id))

        // One more meanwhile: the next flush sends the old ones first, with their ids.
        let later = Components.Schemas.Event(.skip, video: 1_000_000_000_009)
        await sender.send(later)
        #expect(await sender.flush())
        #expect(server.attemptIDs.last == events.map(\.id) + [later.id])
        #expect(await sender.queued.isEmpty)
    }

    @Test("past maxQueued the oldest waiting events are dropped and reported; the batch in flight is not among them")
    func overflow() async throws {
        let server = MemoryEventsServer([.refused])
        let waits = Waits(), reports = Reports(), gate = Gate()
        let sender = FeedEventSender(client: Self.client(server), batchSize: 2, retries: 1, maxQueued: 3, report: { reports.add($0) },
                                     sleep: { await waits.add($0); await gate.wait() })
        let events = Self.events(7)
        for event in events.prefix(2) { await sender.send(event) }
        // The full batch went out, failed, and waits for its retry: the rest queue up behind it.
        var turns = 0
        while await waits.all.isEmpty, turns < 1_000_000 {
            await Task.yield()
            turns += 1
        }
        #expect(await waits.all.count == 1)
        for event in events.dropFirst(2) { await sender.send(event) }
        #expect(await sender.queued.map(\.id) == events.suffix(3).map(\.id))
        let dropped = reports.all.compactMap { delivery -> [String]? in
            if case let .overflowed(events) = delivery { return events.map(\.id) }
            return nil
        }
        #expect(dropped == [[events[2].id], [events[3].id]])
        await gate.release()
        #expect(await sender.flush())
        let ids = events.map(\.id)
        #expect(server.attemptIDs == [[ids[0], ids[1]], [ids[0], ids[1]], [ids[4], ids[5]], [ids[6]]], "\(server.attemptIDs)")
    }
}

/// A door the test opens: ``wait()`` returns once ``release()`` was called.
actor Gate {
    private var open = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        open = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
