import Crypto
import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll.add")
struct RollAddTests {
    @Test("copy: the stored file has the source's bytes and SHA-256, the row its probe, the original stays")
    func copy() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let source = try RollTestSupport.clip(folder.url("a.mp4"), seed: 1, width: 64, height: 48, frames: 10, fps: 10)
        let recording = try #require(try await roll.add([source.path]).first)
        #expect(recording.id > 0)
        #expect(recording.media.width == 64 && recording.media.height == 48)
        #expect(abs(recording.media.duration - 1.0) < 0.15)
        #expect(abs(recording.media.fps - 10) < 0.01)
        #expect(recording.media.videoCodec == "h264")
        #expect(!recording.media.hasAudio)
        #expect(recording.originalPath == source.path)
        let stored = roll.url(of: recording)
        #expect(try Data(contentsOf: stored) == Data(contentsOf: source))
        #expect(recording.sha256 == SHA256.hex([UInt8](try Data(contentsOf: source))))
        #expect(recording.bytes == Int64(try Data(contentsOf: source).count))
        #expect(FileManager.default.fileExists(atPath: source.path))
        #expect(try await roll.recording(id: recording.id) == recording)
        #expect(RollTestSupport.contents(roll.paths.incoming).isEmpty)
    }

    @Test("move: the original is gone and the bytes are in the roll")
    func move() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let source = try RollTestSupport.clip(folder.url("m.mp4"), seed: 2)
        let bytes = try Data(contentsOf: source)
        let recording = try #require(try await roll.add([source.path], options: AddOptions(mode: .move)).first)
        #expect(!FileManager.default.fileExists(atPath: source.path))
        #expect(try Data(contentsOf: roll.url(of: recording)) == bytes)
    }

    @Test("link: the stored file is the same inode as the original")
    func link() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let source = try RollTestSupport.clip(folder.url("l.mp4"), seed: 3)
        let recording = try #require(try await roll.add([source.path], options: AddOptions(mode: .link)).first)
        let a = try FileManager.default.attributesOfItem(atPath: source.path)[.systemFileNumber] as? Int
        let b = try FileManager.default.attributesOfItem(atPath: roll.url(of: recording).path)[.systemFileNumber] as? Int
        #expect(a != nil && a == b)
    }

    @Test("a non-video among videos refuses the whole call: no row, no file")
    func nonMedia() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let good = try RollTestSupport.clip(folder.url("good.mp4"), seed: 4)
        let text = folder.url("notes.mp4")
        try Data("just some text pretending to be a video\n".utf8).write(to: text)
        await #expect {
            try await roll.add([good.path, text.path])
        } throws: { error in
            guard case let .notMedia(path, _) = error as? RollError else { return false }
            return path == text.path
        }
        #expect(try await roll.count() == 0)
        #expect(RollTestSupport.storedFiles(roll).isEmpty)
        #expect(RollTestSupport.contents(roll.paths.incoming).isEmpty)
    }

    @Test("a missing file is refused with exit 66")
    func missing() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let path = folder.url("nowhere.mp4").path
        await #expect(throws: RollError.missingFile(path: path)) { try await roll.add([path]) }
        #expect(RollError.missingFile(path: path).kind == .missingInput)
    }

    @Test("the same content twice is refused naming the first, unless duplicates are allowed")
    func duplicate() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let source = try RollTestSupport.clip(folder.url("d.mp4"), seed: 5)
        let copy = folder.url("d-copy.mp4")
        try FileManager.default.copyItem(at: source, to: copy)
        let first = try #require(try await roll.add([source.path]).first)
        await #expect(throws: RollError.duplicate(path: copy.path, existingID: first.id)) { try await roll.add([copy.path]) }
        #expect(try await roll.count() == 1)
        #expect(RollTestSupport.storedFiles(roll).count == 1)
        #expect(RollTestSupport.contents(roll.paths.incoming).isEmpty)
        let second = try #require(try await roll.add([copy.path], options: AddOptions(allowDuplicate: true)).first)
        #expect(second.sha256 == first.sha256 && second.id != first.id)
        #expect(try await roll.count() == 2)
    }

    @Test("title and stack sources are stored and read back")
    func stacked() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let source = try RollTestSupport.clip(folder.url("s.mp4"), seed: 6)
        let options = AddOptions(title: "dinner", sources: ["/x/front.mp4", "/x/back.mp4"], stackOptions: #"{"layout":"vertical"}"#)
        let added = try await #require(try roll.add([source.path], options: options).first)
        let read = try await roll.recording(id: added.id)
        #expect(read.title == "dinner")
        #expect(read.sources == ["/x/front.mp4", "/x/back.mp4"])
        #expect(read.stackOptions == #"{"layout":"vertical"}"#)
    }

    @Test("adds from several threads at once all land")
    func concurrentAdds() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let clips = try (0..<8).map { try RollTestSupport.clip(folder.url("c\($0).mp4"), seed: 100 + $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for clip in clips { group.addTask { _ = try await roll.add([clip.path]) } }
            try await group.waitForAll()
        }
        await #expect(try roll.count() == 8)
        #expect(RollTestSupport.storedFiles(roll).count == 8)
    }

    @Test("skipping duplicates: a file already in the roll or earlier in the batch is skipped, the rest still land")
    func skippingDuplicates() async throws {
        // Given a roll holding d.mp4, and a batch with a copy of it and two copies of a new clip.
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let first = try #require(try await roll.add([RollTestSupport.clip(folder.url("d.mp4"), seed: 5).path]).first)
        let copy = folder.url("d-copy.mp4"), e = try RollTestSupport.clip(folder.url("e.mp4"), seed: 6), eCopy = folder.url("e-copy.mp4")
        try FileManager.default.copyItem(at: folder.url("d.mp4"), to: copy)
        try FileManager.default.copyItem(at: e, to: eCopy)

        // When it is added skipping duplicates.
        var reported: [AddOutcome] = []
        let outcomes = try await roll.addSkippingDuplicates([e.path, copy.path, eCopy.path], outcome: { reported.append($0) })

        // Then e lands, both copies are skipped naming what they duplicate, and nothing is left over.
        guard case let .added(added)? = outcomes.first else { Issue.record("\(outcomes)"); return }
        #expect(added.originalPath == e.path)
        #expect(outcomes == [.added(added), .duplicate(path: copy.path, existingID: first.id), .duplicate(path: eCopy.path, existingID: added.id)])
        #expect(reported == outcomes)
        #expect(try await roll.count() == 2 && RollTestSupport.storedFiles(roll).count == 2)
        #expect(RollTestSupport.contents(roll.paths.incoming).isEmpty)
        // With duplicates allowed, nothing is skipped.
        let allowed = try await roll.addSkippingDuplicates([copy.path], options: AddOptions(allowDuplicate: true))
        guard case .added? = allowed.first else { Issue.record("\(allowed)"); return }
        #expect(try await roll.count() == 3)
    }
}
