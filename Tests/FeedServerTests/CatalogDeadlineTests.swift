import FeedCore
import FeedTestSupport
import Testing
@testable import FeedServer

/// `/healthz` and `/metrics` give the catalog a few seconds, then answer without it.
@Suite("CatalogDeadline")
struct CatalogDeadlineTests {
    @Test("a catalog call that never returns ends in Exceeded at the deadline; one that returns gives its value or its error")
    func deadline() async throws {
        // A catalog call that returns only when the test lets it, after the deadline has answered.
        let held = Locked<CheckedContinuation<Void, Never>?>(nil)
        let hung = Task<Int, any Error> {
            try await CatalogDeadline.run(seconds: 0.05) {
                await withCheckedContinuation { continuation in held.withLock { $0 = continuation } }
                return 1
            }
        }
        await #expect(throws: CatalogDeadline.Exceeded.self) { try await hung.value }
        // The body is still waiting (unawaited, as the deadline leaves it): let it end.
        try await waitUntil(timeout: 30, every: 0.01) { held.withLock { $0 != nil } }
        held.withLock { $0?.resume(); $0 = nil }
        #expect(try await CatalogDeadline.run(seconds: 60) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await CatalogDeadline.run(seconds: 60) { () async throws -> Int in throw Refused() } }
    }
}
