import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``UploadRecordStore``, run against every implementation in ``CatalogFactory/all``,
/// with two handles on one store standing for two servers.
@Suite("UploadRecordStore")
struct UploadRecordStoreTests {
    static func record(_ n: Int, phase: UploadRecord.Phase = .uploading) -> UploadRecord {
        UploadRecord(id: String(format: "%032x", n), length: 1000 + Int64(n), metadata: "filename YS5tcDQ=", created: 1_800_000_000 + Double(n) + 0.5,
                     phase: phase, recordingID: phase == .done ? Int64(n) : nil, error: phase == .failed ? "not a video ✗" : nil,
                     finished: phase == .uploading ? nil : 1_800_000_100.25)
    }

    @Test("records read back field for field, oldest first; an unknown id is nil", arguments: CatalogFactory.all)
    func roundTrip(factory: CatalogFactory) async throws {
        let store = try await factory.make(try ScratchFolder())
        let records = [Self.record(2), Self.record(1, phase: .done), Self.record(3, phase: .failed)]
        for record in records { try await store.insertUpload(record) }
        #expect(try await store.uploadRecord(id: records[1].id) == records[1])
        #expect(try await store.uploadRecords(phase: nil) == records.sorted { $0.created < $1.created })
        #expect(try await store.uploadRecords(phase: .uploading) == [records[0]])
        #expect(try await store.uploadRecords(phase: .done) == [records[1]])
        #expect(try await store.uploadRecord(id: Self.record(9).id) == nil)
    }

    @Test("one claim at a time across two handles; held shows it, and what the holder last said it synced; a release lets the other in", arguments: CatalogFactory.all)
    func claims(factory: CatalogFactory) async throws {
        let (a, b) = try await factory.makePair(try ScratchFolder())
        let record = Self.record(1)
        try await a.insertUpload(record)
        #expect(try await a.claimUpload(id: record.id, token: "A", for: 30))
        #expect(try await !b.claimUpload(id: record.id, token: "B", for: 30))
        #expect(try await b.uploadRecord(id: record.id)?.held == true)
        #expect(try await !b.renewUpload(id: record.id, token: "B", for: 30, synced: 9))
        #expect(try await b.uploadRecord(id: record.id)?.synced == nil, "a refused renewal records nothing")
        #expect(try await a.renewUpload(id: record.id, token: "A", for: 30, synced: 7))
        #expect(try await a.renewUpload(id: record.id, token: "A", for: 30, synced: nil))
        #expect(try await b.uploadRecord(id: record.id)?.synced == 7, "the holder's last word on what it synced, seen by the other")
        try await b.releaseUpload(id: record.id, token: "B")
        #expect(try await !b.claimUpload(id: record.id, token: "B", for: 30), "a release with the wrong token lets nothing go")
        try await a.releaseUpload(id: record.id, token: "A")
        #expect(try await b.uploadRecord(id: record.id)?.held == false)
        #expect(try await b.uploadRecord(id: record.id)?.synced == nil, "the release forgets it")
        #expect(try await b.claimUpload(id: record.id, token: "B", for: 30))
        #expect(try await !a.claimUpload(id: Self.record(7).id, token: "A", for: 30), "no such upload")
    }

    @Test("a claim whose lease ran out can be taken; its holder then changes nothing", arguments: CatalogFactory.all)
    func expiredClaim(factory: CatalogFactory) async throws {
        let clock = ManualWallClock()
        let (a, b) = try await factory.makeClockedPair(try ScratchFolder(), clock)
        var record = Self.record(1)
        try await a.insertUpload(record)
        #expect(try await a.claimUpload(id: record.id, token: "A", for: 0.05))
        #expect(try await !b.claimUpload(id: record.id, token: "B", for: 30), "held until the clock moves")
        clock.advance(by: 0.3)
        #expect(try await a.uploadRecord(id: record.id)?.held == false)
        #expect(try await b.claimUpload(id: record.id, token: "B", for: 30))
        record.phase = .done
        record.recordingID = 5
        record.finished = 1_800_000_200
        #expect(try await !a.renewUpload(id: record.id, token: "A", for: 30, synced: nil))
        #expect(try await !a.finishUpload(record, token: "A"))
        #expect(try await !a.deleteUpload(id: record.id, token: "A"))
        #expect(try await a.uploadRecord(id: record.id)?.phase == .uploading)
    }

    @Test("finish records the outcome and lets go; delete removes the row, only under the claim", arguments: CatalogFactory.all)
    func finishAndDelete(factory: CatalogFactory) async throws {
        let (a, b) = try await factory.makePair(try ScratchFolder())
        var record = Self.record(1)
        try await a.insertUpload(record)
        #expect(try await a.claimUpload(id: record.id, token: "A", for: 30))
        record.phase = .failed
        record.error = "x.txt: not a video file"
        record.finished = 1_800_000_300.5
        #expect(try await a.finishUpload(record, token: "A"))
        #expect(try await b.uploadRecord(id: record.id) == record)
        #expect(try await !a.deleteUpload(id: record.id, token: "A"), "finishing let go of the claim")
        #expect(try await b.claimUpload(id: record.id, token: "B", for: 30))
        #expect(try await b.deleteUpload(id: record.id, token: "B"))
        #expect(try await a.uploadRecord(id: record.id) == nil)
        #expect(try await a.uploadRecords(phase: nil).isEmpty)
    }
}
