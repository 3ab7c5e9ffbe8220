import Testing
@testable import FeedServer

/// `/healthz` and `/metrics` give the catalog a few seconds, then answer without it.
@Suite("CatalogDeadline")
struct CatalogDeadlineTests {
    @Test("a catalog call that never returns ends in Exceeded at the deadline; one that returns gives its value or its error")
    func deadline() async throws {
        let hung = Task<Int, any Error> { try await CatalogDeadline.run(seconds: 0.05) { try await Task.sleep(for: .seconds(3600)); return 1 } }
        await #expect(throws: CatalogDeadline.Exceeded.self) { try await hung.value }
        #expect(try await CatalogDeadline.run(seconds: 60) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await CatalogDeadline.run(seconds: 60) { () async throws -> Int in throw Refused() } }
    }
}
