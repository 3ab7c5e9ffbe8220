import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``JobStore``, run against every implementation in ``CatalogFactory/all``.
@Suite("JobStore (every implementation)")
struct JobStoreTests {
    @Test("jobs are claimed oldest first, once each; finishing is final", arguments: CatalogFactory.all)
    func lifecycle(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let store = try await factory.make(folder)
        let a = try await store.enqueue(kind: "stack", request: #"{"n":1}"#)
        let b = try await store.enqueue(kind: "stack", request: #"{"n":2}"#)

        let first = try #require(try await store.claimNext())
        let second = try #require(try await store.claimNext())
        #expect(first.id == a.id && first.state == .running && second.id == b.id)
        #expect(try await store.claimNext() == nil)
        try await store.setProgress(0.5, id: a.id)
        #expect(try await store.job(id: a.id)?.progress == 0.5)

        #expect(try await store.finish(id: a.id, state: .done, recordingID: 7, error: nil))
        #expect(try await !store.finish(id: a.id, state: .failed, recordingID: nil, error: "late"))
        let done = try #require(try await store.job(id: a.id))
        #expect(done.state == .done && done.recordingID == 7 && done.progress == 1 && done.request == #"{"n":1}"#)
        #expect(try await store.finish(id: b.id, state: .failed, recordingID: nil, error: "no audio"))
        #expect(try await store.job(id: b.id)?.error == "no audio")
        #expect(try await store.job(id: 999) == nil)
    }

    @Test("running jobs go back to the queue (a crash), queued ones can be cancelled", arguments: CatalogFactory.all)
    func requeueAndCancel(factory: CatalogFactory) async throws {
        let folder = try ScratchFolder()
        let store = try await factory.make(folder)
        let a = try await store.enqueue(kind: "stack", request: "{}")
        let b = try await store.enqueue(kind: "stack", request: "{}")
        _ = try await store.claimNext()

        #expect(try await store.requeueRunning() == 1)
        #expect(try await store.job(id: a.id)?.state == .queued)
        #expect(try await store.finish(id: b.id, state: .cancelled, recordingID: nil, error: nil))
        #expect(try await store.claimNext()?.id == a.id)
        #expect(try await store.claimNext() == nil)
    }
}
