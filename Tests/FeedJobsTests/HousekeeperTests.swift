import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
import FeedSQLite
@testable import FeedJobs

/// What a runner's housekeeping removes, and what it leaves.
@Suite("Housekeeper")
struct HousekeeperTests {
    @Test("staged media unwritten for an hour goes (a packaging, a copy); one written lately (in it or a rung of it), and published ladders, stay")
    func abandonedStaging() throws {
        let folder = try ScratchFolder()
        let paths = RollPaths(home: folder.url("home"))
        let base = try { () throws -> SQLiteCatalog in
            try FileManager.default.createDirectory(at: paths.hls, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: paths.incoming, withIntermediateDirectories: true)
            return try SQLiteCatalog(path: paths.database.path, setupLock: paths.setupLock)
        }()
        let roll = try Roll(paths: paths, catalog: base, prober: MediaRecordingProber())
        let lines = Locked<[String]>([])
        let keeper = Housekeeper(roll: roll, worker: .current, log: { line in lines.withLock { $0.append(line) } })
        let fm = FileManager.default
        func make(_ name: String, in folder: URL? = nil, rungWrittenAgo: TimeInterval?, ago: TimeInterval) throws {
            let url = (folder ?? paths.incoming).appendingPathComponent(name)
            try fm.createDirectory(at: url.appendingPathComponent("360"), withIntermediateDirectories: true)
            let old = Date(timeIntervalSinceNow: -ago)
            try fm.setAttributes([.modificationDate: rungWrittenAgo.map { Date(timeIntervalSinceNow: -$0) } ?? old], ofItemAtPath: url.appendingPathComponent("360").path)
            try fm.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
        }
        try make(".ladder-3f2b07355843.6152-3996058282.part", rungWrittenAgo: nil, ago: 7200)   // died two hours ago
        try make(".ladder-aa.77-1.part", rungWrittenAgo: 5, ago: 7200)                          // a rung written 5 s ago
        try make("ladder-bb", rungWrittenAgo: nil, ago: 60)                                     // started a minute ago
        try make("3-3f2b07355843-cmaf", in: paths.hls, rungWrittenAgo: nil, ago: 7200)          // a published ladder
        let copy = paths.incoming.appendingPathComponent("faststart-cc")
        try Data("moov".utf8).write(to: copy)
        try fm.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: copy.path)
        keeper.removeAbandonedStaging()
        #expect(try fm.contentsOfDirectory(atPath: paths.incoming.path).sorted() == [".ladder-aa.77-1.part", "ladder-bb"])
        #expect(try fm.contentsOfDirectory(atPath: paths.hls.path) == ["3-3f2b07355843-cmaf"])
        #expect(lines.withLock { $0.sorted() } == ["removed staged media .ladder-3f2b07355843.6152-3996058282.part, unwritten for an hour (its process died)",
                                                   "removed staged media faststart-cc, unwritten for an hour (its process died)"])
    }
}
