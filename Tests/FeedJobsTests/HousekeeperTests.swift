import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
import FeedSQLite
@testable import FeedJobs

/// What a runner's housekeeping removes, and what it leaves.
@Suite("Housekeeper")
struct HousekeeperTests {
    @Test("a packaging's .part folder in .hls/ unwritten for an hour goes; one written lately (in it or a rung of it), and finished ladders, stay")
    func abandonedPackagings() throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        let base = try { () throws -> SQLiteCatalog in
            try FileManager.default.createDirectory(at: paths.hls, withIntermediateDirectories: true)
            return try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock)
        }()
        let roll = try Roll(paths: paths, catalog: base, prober: MediaRecordingProber())
        let lines = Locked<[String]>([])
        let keeper = Housekeeper(roll: roll, worker: .current, log: { line in lines.withLock { $0.append(line) } })
        let fm = FileManager.default
        func make(_ name: String, rungWrittenAgo: TimeInterval?, ago: TimeInterval) throws {
            let url = paths.hls.appendingPathComponent(name)
            try fm.createDirectory(at: url.appendingPathComponent("360"), withIntermediateDirectories: true)
            let old = Date(timeIntervalSinceNow: -ago)
            try fm.setAttributes([.modificationDate: rungWrittenAgo.map { Date(timeIntervalSinceNow: -$0) } ?? old], ofItemAtPath: url.appendingPathComponent("360").path)
            try fm.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
        }
        try make(".3-3f2b07355843-cmaf.6152-3996058282.part", rungWrittenAgo: nil, ago: 7200)   // died two hours ago
        try make(".4-aa-cmaf.77-1.part", rungWrittenAgo: 5, ago: 7200)                       // a rung written 5 s ago
        try make(".5-bb-cmaf.78-2.part", rungWrittenAgo: nil, ago: 60)                       // started a minute ago
        try make("3-3f2b07355843-cmaf", rungWrittenAgo: nil, ago: 7200)                      // a finished ladder
        keeper.removeAbandonedPackagings()
        let left = try fm.contentsOfDirectory(atPath: paths.hls.path).sorted()
        #expect(left == [".4-aa-cmaf.77-1.part", ".5-bb-cmaf.78-2.part", "3-3f2b07355843-cmaf"])
        #expect(lines.withLock { $0 } == ["removed .hls/.3-3f2b07355843-cmaf.6152-3996058282.part, a packaging unwritten for an hour (its process died)"])
    }
}
