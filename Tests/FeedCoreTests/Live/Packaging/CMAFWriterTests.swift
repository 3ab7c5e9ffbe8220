import Testing
@testable import FeedCore

/// The CMAF writer's boxes, read back with FeedCore's own box reader.
@Suite("CMAFWriter")
struct CMAFWriterTests {
    static let video = try! AVCConfiguration(record: LiveMedia.avcRecord)
    static let audio = try! AACConfiguration(config: LiveMedia.aacConfig)

    /// The payload of the box at `path` under `range`.
    static func payload(_ path: [String], in bytes: [UInt8], range: Range<Int>? = nil) -> ArraySlice<UInt8> {
        guard let box = MP4Box.find(path, in: bytes, range: range ?? 0 ..< bytes.count) else { return [] }
        return bytes[box.body]
    }

    @Test("init.mp4: ftyp iso6 with iso6 and cmfc, mvhd, a trak per track with the real size, avcC and esds as sent, trex per track")
    func initSegment() throws {
        let bytes = CMAFWriter(video: Self.video, audio: Self.audio).initSegment()
        #expect(MP4Box.children(of: bytes, in: 0 ..< bytes.count).map(\.type) == ["ftyp", "moov"])
        #expect(Array(Self.payload(["ftyp"], in: bytes)) == Array("iso6".utf8) + [0, 0, 0, 0] + Array("iso6cmfc".utf8))
        let moov = try #require(MP4Box.child("moov", of: bytes, in: 0 ..< bytes.count))
        #expect(MP4Box.children(of: bytes, in: moov.body).map(\.type) == ["mvhd", "trak", "trak", "mvex"])
        let traks = MP4Box.children(of: bytes, in: moov.body).filter { $0.type == "trak" }

        let tkhd = Self.payload(["tkhd"], in: bytes, range: traks[0].body)
        #expect(bytes.uint32(at: tkhd.startIndex + 12) == 1)                       // track id
        #expect(bytes.uint32(at: tkhd.endIndex - 8) == 320 << 16 && bytes.uint32(at: tkhd.endIndex - 4) == 240 << 16)
        #expect(bytes.uint32(at: Self.payload(["mdia", "mdhd"], in: bytes, range: traks[0].body).startIndex + 12) == 90_000)
        let stsd = try #require(MP4Box.find(["mdia", "minf", "stbl", "stsd"], in: bytes, range: traks[0].body))
        let avc1 = try #require(MP4Box.child("avc1", of: bytes, in: stsd.payload + 8 ..< stsd.end))
        #expect(bytes[avc1.payload + 24] == 1 && bytes[avc1.payload + 25] == 64)  // width 320
        #expect(bytes[avc1.payload + 26] == 0 && bytes[avc1.payload + 27] == 240)
        let avcC = try #require(MP4Box.child("avcC", of: bytes, in: avc1.payload + 78 ..< avc1.end))
        #expect(Array(bytes[avcC.body]) == LiveMedia.avcRecord)

        #expect(bytes.uint32(at: Self.payload(["tkhd"], in: bytes, range: traks[1].body).startIndex + 12) == 2)
        #expect(bytes.uint32(at: Self.payload(["mdia", "mdhd"], in: bytes, range: traks[1].body).startIndex + 12) == 44_100)
        let soundStsd = try #require(MP4Box.find(["mdia", "minf", "stbl", "stsd"], in: bytes, range: traks[1].body))
        let mp4a = try #require(MP4Box.child("mp4a", of: bytes, in: soundStsd.payload + 8 ..< soundStsd.end))
        #expect(bytes[mp4a.payload + 17] == 1)                                      // one channel
        let esds = try #require(MP4Box.child("esds", of: bytes, in: mp4a.payload + 28 ..< mp4a.end))
        let descriptor = Array(bytes[esds.body])
        #expect(descriptor.starts(with: [0, 0, 0, 0, 0x03]))
        #expect(descriptor.firstRange(of: [0x05, 2] + LiveMedia.aacConfig) != nil)

        let trexIDs = MP4Box.children(of: bytes, in: try #require(MP4Box.child("mvex", of: bytes, in: moov.body)).body)
            .map { bytes.uint32(at: $0.payload + 4) }
        #expect(trexIDs == [1, 2])
    }

    @Test("an audio-only stream has one trak, track 1, at the sample rate")
    func audioOnly() throws {
        let writer = CMAFWriter(video: nil, audio: Self.audio)
        #expect(writer.trackID(.audio) == 1 && writer.trackID(.video) == nil)
        let bytes = writer.initSegment()
        let moov = try #require(MP4Box.child("moov", of: bytes, in: 0 ..< bytes.count))
        #expect(MP4Box.children(of: bytes, in: moov.body).map(\.type) == ["mvhd", "trak", "mvex"])
        #expect(bytes.uint32(at: Self.payload(["moov", "trak", "mdia", "mdhd"], in: bytes).startIndex + 12) == 44_100)
    }

    @Test("a fragment: mfhd numbered, a traf per track with tfdt, durations, sizes, sync flags and composition offsets; data offsets land on the samples in mdat")
    func fragment() throws {
        let writer = CMAFWriter(video: Self.video, audio: Self.audio)
        let video = CMAFWriter.Run(track: .video, baseDecodeTime: 90_000, samples: [
            .init(duration: 3000, compositionOffset: 6000, isSync: true, data: [1, 2, 3]),
            .init(duration: 3000, compositionOffset: 0, isSync: false, data: [4, 5]),
        ])
        let audio = CMAFWriter.Run(track: .audio, baseDecodeTime: 44_100, samples: [.init(duration: 1024, isSync: true, data: [9, 9, 9, 9])])
        let empty = CMAFWriter.Run(track: .audio, baseDecodeTime: 0, samples: [])
        let bytes = writer.fragment(sequence: 7, runs: [video, empty, audio])
        #expect(MP4Box.children(of: bytes, in: 0 ..< bytes.count).map(\.type) == ["moof", "mdat"])
        #expect(bytes.uint32(at: Self.payload(["moof", "mfhd"], in: bytes).startIndex + 4) == 7)
        let trafs = TrackFragment.all(in: bytes)[0]
        #expect(trafs.map(\.trackID) == [1, 2])
        #expect(trafs[0].baseDecodeTime == 90_000 && trafs[1].baseDecodeTime == 44_100)
        #expect(trafs[0].durations == [3000, 3000] && trafs[0].sizes == [3, 2] && trafs[0].compositionOffsets == [6000, 0])
        #expect(trafs[0].flags == [0x0200_0000, 0x0101_0000] && trafs[0].startsWithSync)
        #expect(trafs[1].durations == [1024] && trafs[1].compositionOffsets.isEmpty)
        #expect(Array(bytes[trafs[0].dataOffset ..< trafs[0].dataOffset + 5]) == [1, 2, 3, 4, 5])
        #expect(Array(bytes[trafs[1].dataOffset ..< trafs[1].dataOffset + 4]) == [9, 9, 9, 9])
        let tfhd = Self.payload(["moof", "traf", "tfhd"], in: bytes)
        #expect(bytes.uint32(at: tfhd.startIndex) & 0xFFFFFF == 0x02_0000)          // default-base-is-moof
    }

    @Test("a negative composition offset makes the trun version 1, signed")
    func signedOffsets() throws {
        let writer = CMAFWriter(video: Self.video, audio: nil)
        let bytes = writer.fragment(sequence: 1, runs: [CMAFWriter.Run(track: .video, baseDecodeTime: 0, samples: [
            .init(duration: 3000, compositionOffset: -3000, isSync: true, data: [1]),
        ])])
        let trun = Self.payload(["moof", "traf", "trun"], in: bytes)
        #expect(trun.first == 1)
        #expect(TrackFragment.all(in: bytes)[0][0].compositionOffsets == [-3000])
    }
}
