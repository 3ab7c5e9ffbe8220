import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

/// Paths that try to leave the roll, at the FeedCore level: an empty name, relative symbolic
/// links added by link or move, and file names that are not plain names in the database.
@Suite("Hostile roll paths")
struct HostileRollTests {
    @Test("an empty file name is a usage error and adds nothing (it would name the current folder)")
    func emptyName() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let clip = try RollTestSupport.clip(folder.url("a.mp4"), seed: 1)

        await #expect(throws: RollError.invalidArgument("an empty file name is not a file; nothing was added")) {
            try await roll.add([clip.path, ""])
        }
        #expect(RollError.invalidArgument("").kind == .usage)
        #expect(try await roll.recordings(limit: nil).isEmpty && RollTestSupport.storedFiles(roll).isEmpty)
    }

    @Test("a relative symbolic link added by link or move stores the clip, not a link that resolves inside recordings/",
          arguments: [AddOptions.Mode.link, .move])
    func relativeLink(mode: AddOptions.Mode) async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        try FileManager.default.createDirectory(at: folder.url("clips"), withIntermediateDirectories: false)
        let clip = try RollTestSupport.clip(folder.url("clips/real.mp4"), seed: 2)
        let link = folder.url("clips/link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.mp4")

        let recording = try #require(try await roll.add([link.path], options: AddOptions(mode: mode)).first)

        let stored = roll.url(of: recording)
        #expect(!Roll.isSymbolicLink(stored) || (try? FileManager.default.destinationOfSymbolicLink(atPath: stored.path)) == clip.path)
        #expect(try Data(contentsOf: stored) == Data(contentsOf: clip))
        #expect(try await roll.verify().isClean)
        #expect(FileManager.default.fileExists(atPath: clip.path), "the clip the link points to stays")
        #expect(Roll.isSymbolicLink(link) == (mode == .link), "--move removes the link it copied from")
    }

    @Test("a file name that is not a plain name maps inside recordings/", arguments: [
        ("../../etc/passwd", false), ("a/b.mp4", false), ("..", false), (".", false), ("", false),
        ("20261121-221848-23f7c8b99bf247e0.mp4", true), ("..mp4", true),
    ])
    func storedName(name: String, plain: Bool) {
        let paths = RollPaths(home: URL(fileURLWithPath: "/roll"))

        let file = paths.file(named: name)

        #expect(file.deletingLastPathComponent().path == paths.recordings.path)
        #expect(!file.lastPathComponent.isEmpty && file.lastPathComponent != ".." && file.lastPathComponent != ".")
        #expect((file.lastPathComponent == name) == plain)
    }
}
