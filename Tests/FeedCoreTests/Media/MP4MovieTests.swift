import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// MP4Movie reads `moov` and believes none of its numbers: sizes and offsets that run past the
/// file or past Int64 give no answer (nil, or a refusal), never a crash. A server computes
/// `preload_bytes` and fast-start copies from uploaded files, so one hostile file must not end it.
@Suite("MP4Movie with hostile tables")
struct MP4MovieTests {
    static func be(_ value: UInt64, _ bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// A box of `type` around `payload`.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be(UInt64(8 + payload.count), 4) + Array(type.utf8) + payload }

    /// ftyp, a 100-byte mdat, then a moov of one video track with one sample of `sampleSize`
    /// bytes in one chunk at `chunkOffset` (`co64` when `wide`), and `tail` after it all.
    static func file(chunkOffset: UInt64, sampleSize: UInt32 = 10, wide: Bool = false, tail: [UInt8] = []) -> [UInt8] {
        let ftyp = box("ftyp", Array("isom".utf8) + be(0, 4) + Array("isom".utf8))
        let mdat = box("mdat", [UInt8](repeating: 0xAB, count: 92))
        let hdlr = box("hdlr", be(0, 4) + be(0, 4) + Array("vide".utf8) + be(0, 12) + [0])
        let stsz = box("stsz", be(0, 4) + be(UInt64(sampleSize), 4) + be(1, 4))
        let offsets = wide ? box("co64", be(0, 4) + be(1, 4) + be(chunkOffset, 8)) : box("stco", be(0, 4) + be(1, 4) + be(chunkOffset, 4))
        let stsc = box("stsc", be(0, 4) + be(1, 4) + be(1, 4) + be(1, 4) + be(1, 4))
        let stbl = box("stbl", stsz + offsets + stsc)
        let moov = box("moov", box("trak", box("mdia", hdlr + box("minf", stbl))))
        return ftyp + mdat + moov + tail
    }

    static func movie(_ bytes: [UInt8], in folder: ScratchFolder, _ name: String = "clip.mp4") throws -> (MP4Movie, String) {
        let path = folder.url(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (try MP4Movie.read(path: path), path)
    }

    @Test("a sane table: the first picture ends where its chunk says, moved behind moov")
    func sane() throws {
        let folder = try ScratchFolder()
        // ftyp is 20 bytes, the mdat's payload starts at 28.
        let (movie, _) = try Self.movie(Self.file(chunkOffset: 28), in: folder)
        #expect(movie.firstPictureEnd == 38)
        #expect(movie.preloadBytes == 38 + Int64(movie.moov.count))
    }

    @Test("a chunk offset or sample size whose sum passes Int64, or a picture past the file's end: no preload_bytes, no crash",
          arguments: [(UInt64(Int64.max) - 5, UInt32(10)), (UInt64(Int64.max), UInt32(1)), (UInt64(1) << 63, UInt32(10)),
                      (UInt64(1) << 40, UInt32(10)), (UInt64(100), UInt32.max)])
    func overflowingTable(offset: UInt64, size: UInt32) throws {
        let folder = try ScratchFolder()
        let (movie, path) = try Self.movie(Self.file(chunkOffset: offset, sampleSize: size, wide: true), in: folder)
        #expect(movie.preloadBytes == nil)
        #expect(FastStart.preloadBytes(path: path) == nil)
        // Fast start still moves the index and leaves such offsets as they are.
        #expect(try FastStart.write(input: path, output: folder.url("out.mp4").path) == .moved)
    }

    @Test("a moov at the end whose header says 0 (to the end of the file) says its length once moved in front")
    func moovSizedZero() throws {
        let folder = try ScratchFolder()
        var bytes = Self.file(chunkOffset: 28)
        let moovAt = 20 + 100
        #expect(Array(bytes[moovAt + 4 ..< moovAt + 8]) == Array("moov".utf8))
        let length = bytes.count - moovAt
        bytes.replaceSubrange(moovAt ..< moovAt + 4, with: [0, 0, 0, 0])
        let (movie, path) = try Self.movie(bytes, in: folder)
        #expect(movie.layout.moov?.length == Int64(length))
        let out = folder.url("out.mp4").path
        #expect(try FastStart.write(input: path, output: out) == .moved)
        let layout = try #require(MP4Layout.of(path: out))
        #expect(layout.boxes.map(\.type) == ["ftyp", "moov", "mdat"])
        #expect(layout.moov?.length == Int64(length) && layout.index == .start)
        #expect(try MP4Movie.read(path: out).firstPictureEnd == 28 + Int64(length) + 10)
    }

    @Test("a top-level box whose 64-bit size is near Int64.max ends the walk: the boxes before it are the layout")
    func hugeTopLevelBox() throws {
        let folder = try ScratchFolder()
        for size in [UInt64(Int64.max), UInt64(Int64.max) - 7, UInt64(1) << 62] {
            let huge = Self.be(1, 4) + Array("free".utf8) + Self.be(size, 8) + [UInt8](repeating: 0, count: 16)
            let bytes = Self.file(chunkOffset: 28, tail: huge)
            let (movie, path) = try Self.movie(bytes, in: folder, "huge-\(size).mp4")
            #expect(movie.layout.boxes.map(\.type) == ["ftyp", "mdat", "moov"])
            #expect(MP4Layout.of(path: path)?.index == .end)
            let out = folder.url("huge-\(size)-out.mp4").path
            #expect(try FastStart.write(input: path, output: out) == .moved)
            // The unread tail is copied as it was, after the boxes.
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
            #expect(written.count == bytes.count && Array(written.suffix(huge.count)) == huge)
        }
        // With nothing before it but ftyp: no moov, not media.
        let bare = Self.box("ftyp", Array("isom".utf8) + Self.be(0, 4)) + Self.be(1, 4) + Array("free".utf8) + Self.be(UInt64(Int64.max), 8)
        #expect(throws: MediaError.self) { try Self.movie(bare, in: folder, "bare.mp4") }
    }
}
