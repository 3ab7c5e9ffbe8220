import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite("Roll.thumbnail")
struct RollThumbnailTests {
    @Test("a poster is a JPEG of the video's display size, cached under .thumbs by id and time")
    func poster() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let r = try #require(try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1, width: 96, height: 64).path]).first)
        let url = try roll.thumbnail(of: r)
        #expect(url.lastPathComponent == "\(r.id)-\(Int((r.media.duration * 100).rounded())).jpg")
        #expect(url.deletingLastPathComponent().standardizedFileURL == roll.paths.thumbs.standardizedFileURL)
        let size = try #require(ImageHeader.jpegSize([UInt8](try Data(contentsOf: url))))
        #expect(size.width == 96 && size.height == 64)
    }

    @Test("a clip tagged rotate=90 is catalogued and postered upright, at its display size")
    func rotated() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let clip = try RollTestSupport.clip(folder.url("r.mp4"), seed: 3, width: 96, height: 64, rotation: 90)
        let r = try #require(try await roll.add([clip.path]).first)
        #expect(r.media.width == 64 && r.media.height == 96)
        let size = try #require(ImageHeader.jpegSize([UInt8](try Data(contentsOf: roll.thumbnail(of: r)))))
        #expect(size.width == 64 && size.height == 96)
    }

    @Test("a second call returns the cached file without rewriting it")
    func cached() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let r = try #require(try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        let first = try roll.thumbnail(of: r, at: 0.5)
        let stamp = try FileManager.default.attributesOfItem(atPath: first.path)[.modificationDate] as? Date
        try await Task.sleep(for: .milliseconds(20))
        let second = try roll.thumbnail(of: r, at: 0.5)
        #expect(first == second)
        #expect(try FileManager.default.attributesOfItem(atPath: second.path)[.modificationDate] as? Date == stamp)
    }

    @Test("a large video's poster is scaled so its long side is 640")
    func scaled() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let r = try #require(try await roll.add([RollTestSupport.clip(folder.url("big.mp4"), seed: 2, width: 720, height: 1280, frames: 3).path]).first)
        let size = try #require(ImageHeader.jpegSize([UInt8](try Data(contentsOf: roll.thumbnail(of: r)))))
        #expect(size.height == Roll.thumbnailMaxSide && size.width == 360)
    }

    @Test("a time past the end is refused")
    func pastEnd() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let r = try #require(try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        #expect(throws: RollError.self) { try roll.thumbnail(of: r, at: r.media.duration + 5) }
    }

    @Test("-o copies the poster to a new file; an unwritable target exits 73")
    func copy() async throws {
        let folder = try ScratchFolder()
        let roll = try RollTestSupport.roll(in: folder)
        let r = try #require(try await roll.add([RollTestSupport.clip(folder.url("a.mp4"), seed: 1).path]).first)
        let cached = try roll.thumbnail(of: r)
        let out = try roll.copyThumbnail(cached, to: folder.url("poster.jpg").path)
        #expect(try Data(contentsOf: out) == Data(contentsOf: cached))
        #expect {
            try roll.copyThumbnail(cached, to: folder.url("no/such/dir/p.jpg").path)
        } throws: { ($0 as? RollError)?.kind == .cannotCreate }
    }
}
