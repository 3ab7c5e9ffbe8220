import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// Recordings as the live server makes them (the init segment, then every part's bytes), turned
/// into progressive MP4s and read back with ffmpeg and FeedCore's own box reader.
@Suite("FragmentedMP4Flattener")
struct FragmentedMP4FlattenerTests {
    /// A recording of an FLV packaged by LiveSegmenter.
    struct Recorded {
        var flv: String
        var path: String
        var bytes: [UInt8]
        var initLength: Int
        /// Each part's byte range in the recording, its video and its audio samples.
        var parts: [(range: Range<Int>, video: Int, audio: Int)]
    }

    /// ffmpeg's FLV of `variant`, through LiveSegmenter, recorded as init + every part in `folder`.
    static func record(_ variant: LiveMedia.Variant, in folder: ScratchFolder) async throws -> Recorded {
        let flv = try await LiveMedia.flv(variant, in: folder)
        let packaged = try await offThePool { try LiveMedia.package(flv: flv, into: folder.path("hls")) }
        let videoID: UInt32? = variant.hasVideo ? 1 : nil
        var bytes = try #require(packaged.segmenter.initSegment)
        let initLength = bytes.count
        var parts: [(range: Range<Int>, video: Int, audio: Int)] = []
        for (_, part) in packaged.parts {
            let trafs = TrackFragment.all(in: part).joined()
            let video = trafs.filter { $0.trackID == videoID }.reduce(0) { $0 + $1.sizes.count }
            let audio = trafs.filter { $0.trackID != videoID }.reduce(0) { $0 + $1.sizes.count }
            parts.append((bytes.count ..< bytes.count + part.count, video, audio))
            bytes += part
        }
        return Recorded(flv: flv, path: try folder.write("recording.mp4", bytes: bytes), bytes: bytes, initLength: initLength, parts: parts)
    }

    /// The hash column of `ffmpeg -c copy -f framemd5` over the audio of `input`: one per packet.
    static func audioPackets(_ input: String, in folder: ScratchFolder) async throws -> [String] {
        let text = try await LiveMedia.run("ffmpeg", ["-v", "error", "-i", input, "-map", "0:a", "-c", "copy", "-f", "framemd5", "-"],
                                           in: folder)
        return text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The top-level box types of the file at `path`.
    static func topLevel(_ path: String) throws -> [String] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return MP4Box.children(of: bytes, in: 0 ..< bytes.count).map(\.type)
    }

    /// Flattens `source` into `destination` off the cooperative pool.
    static func flatten(_ source: String, _ destination: String) async throws(LiveRecordingError) -> FragmentedMP4Flattener.Summary {
        try await offThePool { () throws(LiveRecordingError) in
            try FragmentedMP4Flattener.flatten(URL(fileURLWithPath: source), to: URL(fileURLWithPath: destination))
        }
    }

    @Test("the flattened recording has moov before mdat and the very video frames and audio packets of the FLV",
          arguments: [LiveMedia.Variant.plain, .bFrames, .videoOnly, .audioOnly])
    func decodesLikeTheSource(variant: LiveMedia.Variant) async throws {
        // Given a recording of a packaged FLV.
        let folder = try ScratchFolder()
        let recorded = try await Self.record(variant, in: folder)

        // When it is flattened.
        let output = folder.path("out.mp4")
        let summary = try await Self.flatten(recorded.path, output)

        // Then the index leads, the counts are the parts', and ffmpeg decodes what the FLV holds.
        #expect(try Self.topLevel(output) == ["ftyp", "moov", "mdat"])
        #expect(summary.fragments == recorded.parts.count && summary.droppedBytes == 0)
        #expect(summary.videoSamples == recorded.parts.reduce(0) { $0 + $1.video })
        #expect(summary.audioSamples == recorded.parts.reduce(0) { $0 + $1.audio })
        #expect(abs(summary.duration - 4) < 0.1, "\(summary.duration)")
        var streams: Set<String> = []
        if variant.hasVideo { streams.insert("h264,320,240") }
        if variant.hasAudio { streams.insert("aac") }
        #expect(try await LivePackagingFFmpegTests.streams(output, in: folder) == streams)
        if variant.hasVideo {
            let source = try await LivePackagingFFmpegTests.frameHashes(recorded.flv, in: folder)
            #expect(source.count == 120 && summary.videoSamples == 120)
            #expect(try await LivePackagingFFmpegTests.frameHashes(output, in: folder) == source)
        }
        if variant.hasAudio {
            // The segmenter may drop a frame of audio before the first key frame: the recording's packets, the FLV's last ones.
            let packets = try await Self.audioPackets(output, in: folder)
            let source = try await Self.audioPackets(recorded.flv, in: folder)
            #expect(packets == (try await Self.audioPackets(recorded.path, in: folder)))
            #expect(packets.count == summary.audioSamples && packets.count > 160)
            #expect(source.count - packets.count <= 1 && Array(source.suffix(packets.count)) == packets)
        }
        if variant == .bFrames {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(MP4Box.find(["moov", "trak", "mdia", "minf", "stbl", "ctts"], in: bytes, range: 0 ..< bytes.count) != nil)
        }
    }

    @Test("a recording cut anywhere keeps exactly its whole fragments: a prefix of the frames and packets, the rest counted as dropped")
    func cutRecordings() async throws {
        // Given a recording, flattened whole.
        let folder = try ScratchFolder()
        let recorded = try await Self.record(.plain, in: folder)
        _ = try await Self.flatten(recorded.path, folder.path("whole.mp4"))
        let frames = try await LivePackagingFFmpegTests.frameHashes(folder.path("whole.mp4"), in: folder)
        let packets = try await Self.audioPackets(folder.path("whole.mp4"), in: folder)
        let part = recorded.parts[3].range
        let moofLength = Int(recorded.bytes.uint32(at: part.lowerBound))
        var cuts = (1 ... 14).map { recorded.bytes.count * $0 * 7 / 100 }
        // Inside a moof, inside an mdat's header, inside its media, and right after a part.
        cuts += [part.lowerBound + 20, part.lowerBound + moofLength + 4, part.lowerBound + moofLength + 30, part.upperBound]

        for cut in cuts {
            // When the first `cut` bytes are flattened.
            let input = try folder.write("cut.mp4", bytes: Array(recorded.bytes.prefix(cut)))
            let output = folder.path("cut-out.mp4")
            let whole = recorded.parts.filter { $0.range.upperBound <= cut }
            guard let last = whole.last else {
                await #expect(throws: LiveRecordingError.noMedia(path: input)) { _ = try await Self.flatten(input, output) }
                continue
            }
            let summary = try await Self.flatten(input, output)

            // Then it holds the whole parts' samples, the same bytes as the whole output's first ones.
            let video = whole.reduce(0) { $0 + $1.video }, audio = whole.reduce(0) { $0 + $1.audio }
            #expect(summary.fragments == whole.count, "cut at \(cut)")
            #expect(summary.droppedBytes == Int64(cut - last.range.upperBound), "cut at \(cut)")
            #expect(summary.videoSamples == video && summary.audioSamples == audio, "cut at \(cut)")
            #expect(try Self.topLevel(output) == ["ftyp", "moov", "mdat"])
            #expect(try await LivePackagingFFmpegTests.frameHashes(output, in: folder) == Array(frames.prefix(video)), "cut at \(cut)")
            #expect(try await Self.audioPackets(output, in: folder) == Array(packets.prefix(audio)), "cut at \(cut)")
        }

        // A cut inside the init segment is no recording at all.
        let input = try folder.write("cut.mp4", bytes: Array(recorded.bytes.prefix(recorded.initLength / 2)))
        let error = await #expect(throws: LiveRecordingError.self) { _ = try await Self.flatten(input, folder.path("none.mp4")) }
        #expect(error?.kind == .invalidData)
        #expect(!FileManager.default.fileExists(atPath: folder.path("none.mp4")))
    }

    @Test("trailing garbage and a fragment whose trun announces 2^32 - 1 samples end the recording before them")
    func garbageEndsTheRecording() async throws {
        let folder = try ScratchFolder()
        let recorded = try await Self.record(.plain, in: folder)
        var random = LiveMedia.Random(state: 7)

        // Garbage after the last part: a box of size 3, then random bytes.
        let garbage: [UInt8] = [0, 0, 0, 3] + Array("junk".utf8) + random.bytes(1000)
        let tail = try folder.write("tail.mp4", bytes: recorded.bytes + garbage)
        let summary = try await Self.flatten(tail, folder.path("tail-out.mp4"))
        #expect(summary.fragments == recorded.parts.count && summary.droppedBytes == Int64(garbage.count))

        // A hostile sample count in the third part's trun (its first traf's, after moof, mfhd, traf and tfhd, tfdt).
        var hostile = recorded.bytes
        let third = recorded.parts[2].range.lowerBound
        let trun = try #require(MP4Box.find(["moof", "traf", "trun"], in: hostile, range: third ..< hostile.count))
        hostile.setUInt32(0xFFFF_FFFF, at: trun.payload + 4)
        let cut = try await Self.flatten(try folder.write("hostile.mp4", bytes: hostile), folder.path("hostile-out.mp4"))
        #expect(cut.fragments == 2 && cut.droppedBytes == Int64(hostile.count - third))
    }

    @Test("a damaged init segment, a progressive MP4, an empty or missing file: the typed error, and no output")
    func damagedFilesThrow() async throws {
        let folder = try ScratchFolder()
        let recorded = try await Self.record(.audioOnly, in: folder)
        let moov = try #require(MP4Box.child("moov", of: recorded.bytes, in: 0 ..< recorded.initLength))
        var inMoov = recorded.bytes
        inMoov.setUInt32(3, at: moov.payload)                  // the mvhd: size 3
        var pastTheEnd = recorded.bytes
        pastTheEnd.setUInt32(UInt32(recorded.bytes.count + 1), at: moov.start)
        let progressive = folder.path("progressive.mp4")
        _ = try await LiveMedia.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-t", "1",
                                               "-c:v", "libx264", progressive], in: folder)
        let cases: [(name: String, path: String, expected: (LiveRecordingError) -> Bool)] = [
            ("size 3", try folder.write("three.mp4", bytes: [0, 0, 0, 3] + Array("ftyp".utf8) + [UInt8](repeating: 0, count: 24)),
             { if case .notFragmented = $0 { true } else { false } }),
            ("size 3 in moov", try folder.write("in-moov.mp4", bytes: inMoov), { if case .notFragmented = $0 { true } else { false } }),
            ("moov past the end", try folder.write("past.mp4", bytes: pastTheEnd), { if case .notFragmented = $0 { true } else { false } }),
            ("progressive", progressive, { if case .notFragmented(_, let reason) = $0 { reason.contains("mvex") } else { false } }),
            ("init only", try folder.write("init.mp4", bytes: Array(recorded.bytes.prefix(recorded.initLength))),
             { if case .noMedia = $0 { true } else { false } }),
            ("empty", try folder.write("empty.mp4", bytes: []), { if case .notFragmented = $0 { true } else { false } }),
            ("missing", folder.path("missing.mp4"), { $0 == .missingFile(path: folder.path("missing.mp4")) }),
        ]
        for (name, path, expected) in cases {
            let output = folder.path("\(name).out.mp4")
            let error = await #expect(throws: LiveRecordingError.self, "\(name)") { _ = try await Self.flatten(path, output) }
            #expect(error.map(expected) == true, "\(name): \(String(describing: error))")
            #expect(error?.description.hasPrefix(path) == true, "\(name)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(name)")
        }
    }

    static let video = try! AVCConfiguration(record: LiveMedia.avcRecord)
    static let audio = try! AACConfiguration(config: LiveMedia.aacConfig)

    /// The big-endian words after the version and flags of the box at `path` in the output's trak number `trak`.
    static func words(_ path: [String], trak: Int, in bytes: [UInt8]) -> [UInt32]? {
        guard let moov = MP4Box.child("moov", of: bytes, in: 0 ..< bytes.count),
              let trak = MP4Box.children(of: bytes, in: moov.body).filter({ $0.type == "trak" }).dropFirst(trak).first,
              let box = MP4Box.find(path, in: bytes, range: trak.body) else { return nil }
        return stride(from: box.payload + 4, to: box.end - 3, by: 4).map { bytes.uint32(at: $0) }
    }

    /// The payload of the output's mdat.
    static func mediaData(_ bytes: [UInt8]) -> [UInt8] {
        MP4Box.child("mdat", of: bytes, in: 0 ..< bytes.count).map { Array(bytes[$0.body]) } ?? []
    }

    @Test("""
        sample tables: a tfdt gap lengthens the last sample, an earlier tfdt follows on, negative offsets make ctts \
        version 1, stss lists the key frames, the later track gets an empty edit
        """)
    func sampleTables() async throws {
        // Given fragments from CMAFWriter: video 3000 ticks a frame, audio starting 0.1 s later.
        let writer = CMAFWriter(video: Self.video, audio: Self.audio)
        func frame(_ tag: UInt8, _ sync: Bool, _ offset: Int32 = 0) -> CMAFWriter.Sample {
            CMAFWriter.Sample(duration: 3000, compositionOffset: offset, isSync: sync, data: [tag, 1, 2, 3, 4])
        }
        func sound(_ tag: UInt8) -> CMAFWriter.Sample { CMAFWriter.Sample(duration: 1024, isSync: true, data: [tag, 0, 0]) }
        let fragments: [[CMAFWriter.Run]] = [
            [CMAFWriter.Run(track: .video, baseDecodeTime: 0,
                            samples: [frame(0x10, true, 3000), frame(0x11, false, 6000), frame(0x12, false, -3000)]),
             CMAFWriter.Run(track: .audio, baseDecodeTime: 4410, samples: [sound(0x20), sound(0x21)])],
            [CMAFWriter.Run(track: .video, baseDecodeTime: 12000, samples: [frame(0x13, true), frame(0x14, false)]),   // 3000 late
             CMAFWriter.Run(track: .audio, baseDecodeTime: 4410 + 2048, samples: [sound(0x22), sound(0x23)])],
            [CMAFWriter.Run(track: .video, baseDecodeTime: 10000, samples: [frame(0x15, false)])],                    // 8000 early
        ]
        var recording = writer.initSegment()
        for (index, runs) in fragments.enumerated() { recording += writer.fragment(sequence: UInt32(index + 1), runs: runs) }
        let folder = try ScratchFolder()

        // When it is flattened.
        let output = folder.path("out.mp4")
        let summary = try await Self.flatten(try folder.write("in.mp4", bytes: recording), output)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))

        // Then the tables say so, and every chunk offset points at its run's first sample.
        #expect(summary == FragmentedMP4Flattener.Summary(fragments: 3, videoSamples: 6, audioSamples: 4, duration: 21_000.0 / 90_000,
                                                         droppedBytes: 0))
        #expect(Self.words(["mdia", "minf", "stbl", "stts"], trak: 0, in: bytes) == [3, 2, 3000, 1, 6000, 3, 3000])
        #expect(Self.words(["mdia", "minf", "stbl", "ctts"], trak: 0, in: bytes)
            == [4, 1, 3000, 1, 6000, 1, UInt32(bitPattern: -3000), 3, 0])
        let ctts = try #require(MP4Box.find(["moov", "trak", "mdia", "minf", "stbl", "ctts"], in: bytes, range: 0 ..< bytes.count))
        #expect(bytes[ctts.payload] == 1)
        #expect(Self.words(["mdia", "minf", "stbl", "stss"], trak: 0, in: bytes) == [2, 1, 4])
        #expect(Self.words(["mdia", "minf", "stbl", "stsz"], trak: 0, in: bytes) == [5, 6])     // one size for all
        #expect(Self.words(["mdia", "minf", "stbl", "stsc"], trak: 0, in: bytes) == [3, 1, 3, 1, 2, 2, 1, 3, 1, 1])
        #expect(Self.words(["mdia", "mdhd"], trak: 0, in: bytes)?.dropFirst(2).prefix(2) == [90_000, 21_000])
        #expect(Self.words(["edts"], trak: 0, in: bytes) == nil)
        #expect(Self.words(["mdia", "minf", "stbl", "stsz"], trak: 1, in: bytes) == [3, 4])
        #expect(Self.words(["mdia", "minf", "stbl", "stss"], trak: 1, in: bytes) == nil)
        #expect(Self.words(["mdia", "minf", "stbl", "ctts"], trak: 1, in: bytes) == nil)
        #expect(Self.words(["edts", "elst"], trak: 1, in: bytes) == [2, 100, 0xFFFF_FFFF, 0x1_0000, 92, 0, 0x1_0000])
        let mvhd = try #require(MP4Box.find(["moov", "mvhd"], in: bytes, range: 0 ..< bytes.count))
        #expect(bytes.uint32(at: mvhd.payload + 12) == 1000 && bytes.uint32(at: mvhd.payload + 16) == 233)
        let tags: [[UInt8]] = [[0x10, 0x13, 0x15], [0x20, 0x22]]
        for trak in 0 ..< 2 {
            let offsets = try #require(Self.words(["mdia", "minf", "stbl", "stco"], trak: trak, in: bytes)).dropFirst()
            #expect(offsets.map { bytes[Int($0)] } == tags[trak])
        }
        let media = fragments.joined().flatMap { $0.samples.flatMap(\.data) }
        #expect(Self.mediaData(bytes) == media)
    }

    @Test("""
        tfhd and trun optional fields: an explicit base offset, defaults, first-sample flags, a free box, a 64-bit mdat, \
        a last mdat of size 0
        """)
    func optionalFields() async throws {
        // Given a video-only init segment, then two fragments built by hand.
        var file = CMAFBoxBuilder()
        file.append(CMAFWriter(video: Self.video, audio: nil).initSegment())
        var baseField = 0
        file.box("moof") { moof in
            moof.fullBox("mfhd") { $0.u32(1) }
            moof.box("traf") { traf in
                // Base data offset, description index, default duration, size and flags.
                traf.fullBox("tfhd", flags: 0x1 | 0x2 | 0x8 | 0x10 | 0x20) { tfhd in
                    tfhd.u32(1)
                    tfhd.u32(0)
                    baseField = tfhd.count
                    tfhd.u32(0)
                    for value: UInt32 in [1, 3000, 4, CMAFWriter.nonSyncFlags] { tfhd.u32(value) }
                }
                traf.fullBox("tfdt") { $0.u32(0) }
                traf.fullBox("trun", flags: 0x4) { $0.u32(3); $0.u32(CMAFWriter.syncFlags) }
            }
        }
        file.box("free") { $0.u32(0) }
        file.patch32(UInt32(file.count + 16), at: baseField)
        file.u32(1)
        file.fourCC("mdat")
        file.u64(16 + 12)
        file.append(Array(0xA0 ..< 0xAC as Range<UInt8>))
        let second = file.count
        var dataField = 0
        file.box("moof") { moof in
            moof.fullBox("mfhd") { $0.u32(2) }
            moof.box("traf") { traf in
                traf.fullBox("tfhd") { $0.u32(1) }                                  // base: the moof
                traf.fullBox("tfdt", version: 1) { $0.u64(9000) }
                traf.fullBox("trun", flags: 0x1 | 0x100 | 0x200 | 0x800) { trun in   // flags from trex: sync
                    trun.u32(2)
                    dataField = trun.count
                    trun.u32(0)
                    for _ in 0 ..< 2 { trun.u32(3000); trun.u32(5); trun.u32(3000) }
                }
            }
        }
        file.patch32(UInt32(file.count - second + 8), at: dataField)
        file.u32(0)                                                                 // to the end of the file
        file.fourCC("mdat")
        file.append(Array(0xB0 ..< 0xBA as Range<UInt8>))
        let folder = try ScratchFolder()

        // When it is flattened, then the defaults and the fields make the tables.
        let output = folder.path("out.mp4")
        let summary = try await Self.flatten(try folder.write("in.mp4", bytes: file.bytes), output)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(summary.fragments == 2 && summary.videoSamples == 5 && summary.droppedBytes == 0)
        #expect(Self.words(["mdia", "minf", "stbl", "stts"], trak: 0, in: bytes) == [1, 5, 3000])
        #expect(Self.words(["mdia", "minf", "stbl", "stsz"], trak: 0, in: bytes) == [0, 5, 4, 4, 4, 5, 5])
        #expect(Self.words(["mdia", "minf", "stbl", "stss"], trak: 0, in: bytes) == [3, 1, 4, 5])
        #expect(Self.words(["mdia", "minf", "stbl", "ctts"], trak: 0, in: bytes) == [2, 3, 0, 2, 3000])
        #expect(Self.words(["mdia", "minf", "stbl", "stsc"], trak: 0, in: bytes) == [2, 1, 3, 1, 2, 2, 1])
        #expect(Self.mediaData(bytes) == Array(0xA0 ..< 0xAC) + Array(0xB0 ..< 0xBA))

        // And with the size-0 mdat cut short, the second fragment's samples lie past the end: it is dropped.
        let cut = try await Self.flatten(try folder.write("cut.mp4", bytes: file.bytes.dropLast(3)), folder.path("cut-out.mp4"))
        #expect(cut.fragments == 1 && cut.videoSamples == 3 && cut.droppedBytes == Int64(file.count - 3 - second))
    }

    @Test("chunk offsets at or past 4 GiB are written as co64, 64-bit")
    func wideOffsets() throws {
        // Given one audio track of one 10-byte sample (4 GiB files are not made in a test).
        let run = FragmentedMP4Flattener.Run(track: 0, decodeTime: 0, descriptionIndex: 1, dataOffset: 0, byteCount: 10,
                                             samples: [.init(duration: 1024, size: 10, flags: 0, compositionOffset: 0)])
        var table = FragmentedMP4Flattener.SampleTable()
        table.append(run, at: 0)
        let stsd: [UInt8] = [0, 0, 0, 16] + Array("stsd".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
        let header = FragmentedMP4Flattener.TrackHeader(id: 1, timescale: 44_100, isVideo: false, sampleDescriptions: stsd, width: 0,
                                                        height: 0, language: 0x55C4, defaults: .init())
        let track = FragmentedMP4Flattener.OutputTrack(header: header, table: table, delay: 0)

        // When its moov is made with the media past 4 GiB, then co64 holds the offset and stco is gone.
        let moov = FragmentedMP4Flattener.movie([track], dataStart: 1 << 32 | 100, wide: true)
        #expect(Self.words(["mdia", "minf", "stbl", "co64"], trak: 0, in: moov) == [1, 1, 100])
        #expect(Self.words(["mdia", "minf", "stbl", "stco"], trak: 0, in: moov) == nil)
        #expect(Self.words(["mdia", "minf", "stbl", "stsd"], trak: 0, in: moov) == [0])
    }
}
