import FeedCore
import FeedTestSupport
import Foundation
import Testing

/// `feed hls` on clips the tests make with ffmpeg, checked with ffprobe: every rung decodes,
/// segments start with key frames at the same timestamps in every rung, target durations hold,
/// bandwidths match the segments, rungs above the source are dropped, failures leave nothing.
@Suite("feed hls")
struct HLSCommandTests {
    /// A clip of moving test pattern (`width`x`height`, 30 fps, `seconds` long), optionally with a
    /// sine tone and a rotation tag, made by ffmpeg.
    static func clip(_ folder: ScratchFolder, _ name: String, width: Int, height: Int, seconds: Double,
                     audio: Bool = false, rotate: Int = 0) async throws -> String {
        let path = folder.path(name)
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=30:d=\(seconds)"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=f=440:d=\(seconds):sample_rate=48000"] }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        if audio { arguments += ["-c:a", "aac", "-shortest"] }
        let encoded = rotate == 0 ? path : folder.path("unturned-" + name)
        let run = try await Tool.run("/usr/bin/ffmpeg", arguments + [encoded])
        try #require(run.status == 0, "ffmpeg: \(run.stderr)")
        if rotate != 0 {
            // FFmpeg 5.1 writes the tag (a display matrix) only when copying, not when encoding.
            let tag = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", encoded, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)", path])
            try #require(tag.status == 0, "ffmpeg: \(tag.stderr)")
        }
        return path
    }

    /// One video packet as ffprobe lists it.
    struct Packet { var pts: Double; var key: Bool }

    /// The video packets of `file` in decode order.
    static func packets(_ file: String) async throws -> [Packet] {
        let run = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags",
                                                          "-of", "csv=p=0", file])
        try #require(run.status == 0, "ffprobe \(file): \(run.stderr)")
        return run.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let pts = Double(fields[0]) else { return nil }
            return Packet(pts: pts, key: fields[1].contains("K"))
        }
    }

    /// The rung folder's segments, each joined to the init segment as ffprobe needs it:
    /// the first packet of each and every key frame's time.
    static func segmentStarts(_ rung: String, scratch: ScratchFolder) async throws -> [Packet] {
        let text = try String(contentsOfFile: rung + "/index.m3u8", encoding: .utf8)
        let playlist = try HLSPlaylist(parsing: text, path: rung)
        let initBytes = try Data(contentsOf: URL(fileURLWithPath: rung + "/" + playlist.initSegment))
        var starts: [Packet] = []
        for segment in playlist.segments {
            let joined = scratch.url("joined-\(UUID().uuidString).mp4")
            try (initBytes + Data(contentsOf: URL(fileURLWithPath: rung + "/" + segment.uri))).write(to: joined)
            let packets = try await packets(joined.path)
            try #require(!packets.isEmpty, "\(segment.uri) has no video")
            starts.append(packets[0])
        }
        return starts
    }

    @Test("a ladder with audio: every rung decodes, segments align on key frames, durations and bandwidths hold, big rungs dropped")
    func ladder() async throws {
        let scratch = try ScratchFolder()
        let source = try await Self.clip(scratch, "portrait.mp4", width: 360, height: 640, seconds: 9, audio: true)
        let out = scratch.path("out")
        let run = try await FeedProcess.run(["hls", source, "-o", out, "--ladder", "1080,360,240,144", "--segment", "4", "--gop", "2", "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let variants = try #require(summary["variants"] as? [[String: Any]])
        // 1080 is above the 360-wide source: dropped. The rest keep the 9:16 aspect, even sides.
        #expect(variants.map { $0["name"] as? String } == ["360p", "240p", "144p"])
        #expect(variants.map { "\($0["width"]!)x\($0["height"]!)" } == ["360x640", "240x426", "144x256"])
        #expect(summary["audio"] as? Bool == true)
        #expect(summary["master"] as? String == out + "/master.m3u8", "as feed roll hls --json names it")

        let master = try HLSMaster.variants(at: out + "/master.m3u8")
        let masterText = try String(contentsOfFile: out + "/master.m3u8", encoding: .utf8)
        #expect(masterText.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
        #expect(master.map(\.uri) == ["360p/index.m3u8", "240p/index.m3u8", "144p/index.m3u8"])
        // The sound is a rendition of its own (one track per segment, as CMAF and DASH want), named by every variant.
        #expect(masterText.contains(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac""#) && masterText.contains(#"URI="audio/index.m3u8""#))
        #expect(masterText.components(separatedBy: #"AUDIO="aac""#).count == 4)
        let audioProbe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0",
                                                                 out + "/audio/index.m3u8"])
        #expect(Set(audioProbe.stdout.split(separator: "\n")) == ["audio"], "\(audioProbe.stdout)")
        let audioDecode = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", out + "/audio/index.m3u8", "-f", "null", "-"])
        #expect(audioDecode.status == 0 && audioDecode.stderr.isEmpty, "\(audioDecode.stderr)")
        let audioPlaylist = try HLSPlaylist(parsing: try String(contentsOfFile: out + "/audio/index.m3u8", encoding: .utf8), path: out)
        var audioPeak = 0.0
        for segment in audioPlaylist.segments {
            let size = Double(try #require(try FileManager.default.attributesOfItem(atPath: out + "/audio/" + segment.uri)[.size] as? Int))
            audioPeak = max(audioPeak, size * 8 / segment.duration)
        }
        var startsByRung: [[Packet]] = []
        for variant in master {
            let rung = out + "/" + variant.uri.replacingOccurrences(of: "/index.m3u8", with: "")
            #expect(variant.codecs?.hasPrefix("avc1.") == true && variant.codecs?.hasSuffix(",mp4a.40.2") == true, "\(variant)")
            #expect(variant.frameRate.map { abs($0 - 30) < 0.01 } == true)

            // The whole rung decodes, picture and sound.
            let decode = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", rung + "/index.m3u8", "-f", "null", "-"])
            #expect(decode.status == 0 && decode.stderr.isEmpty, "\(variant.uri): \(decode.stderr)")
            let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,width,height", "-of", "csv=p=0",
                                                                rung + "/index.m3u8"])
            #expect(probe.stdout.contains("video,\(variant.resolution!.replacingOccurrences(of: "x", with: ","))"), "\(probe.stdout)")
            #expect(!probe.stdout.contains("audio"), "\(probe.stdout)")

            // Playlist rules: VOD, a map, no EXTINF above the target duration, 4 s segments but the last.
            let text = try String(contentsOfFile: rung + "/index.m3u8", encoding: .utf8)
            let playlist = try HLSPlaylist(parsing: text, path: rung)
            #expect(text.contains("#EXT-X-PLAYLIST-TYPE:VOD") && text.contains("#EXT-X-MAP:URI=\"init.mp4\"") && text.contains("#EXT-X-ENDLIST"))
            let target = try #require(text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }.flatMap { Int($0.split(separator: ":")[1]) })
            #expect(target == 4)
            #expect(playlist.segments.allSatisfy { $0.duration <= Double(target) }, "\(playlist.segments)")
            #expect(playlist.segments.count == 3)
            #expect(playlist.segments.dropLast().allSatisfy { abs($0.duration - 4) < 0.05 }, "\(playlist.segments)")
            #expect(abs(playlist.duration - 9) < 0.1)

            // BANDWIDTH is the peak segment rate, AVERAGE-BANDWIDTH the mean, each with the audio's: within 10 % of the files.
            var peak = 0.0, bits = 0.0
            for segment in playlist.segments {
                let size = Double(try #require(try FileManager.default.attributesOfItem(atPath: rung + "/" + segment.uri)[.size] as? Int))
                bits += size * 8
                peak = max(peak, size * 8 / segment.duration)
            }
            #expect(abs(Double(variant.bandwidth) - peak - audioPeak) <= 0.1 * (peak + audioPeak), "\(variant.bandwidth) vs \(peak) + \(audioPeak)")
            let average = try #require(variant.averageBandwidth)
            #expect(abs(Double(average) - bits / playlist.duration) <= 0.1 * bits / playlist.duration + audioPeak)

            // Every segment starts with a key frame; key frames every 2 s and nowhere else.
            let starts = try await Self.segmentStarts(rung, scratch: scratch)
            let allKeys = starts.allSatisfy { $0.key }
            #expect(allKeys, "\(variant.uri): \(starts)")
            startsByRung.append(starts)
            let keys = try await Self.packets(rung + "/index.m3u8").filter(\.key).map(\.pts)
            #expect(keys.count == 5, "\(keys)")
            #expect(zip(keys, keys.dropFirst()).allSatisfy { abs($1 - $0 - 2) < 0.04 }, "\(keys)")
        }
        // The same timestamps in every rung.
        let first = startsByRung[0].map(\.pts)
        for starts in startsByRung.dropFirst() {
            #expect(starts.map(\.pts) == first)
        }
        // Nothing left beside the output.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// The representations of a manifest we wrote: id, timescale, each segment's (start, duration), files.
    static func representations(_ mpd: String) -> [(id: String, timescale: Double, spans: [(Double, Double)], files: [String])] {
        func attribute(_ name: String, _ line: Substring) -> String? {
            guard let start = line.range(of: " \(name)=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        var out: [(id: String, timescale: Double, spans: [(Double, Double)], files: [String])] = []
        for line in mpd.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces)[...] }) {
            if line.hasPrefix("<Representation "), let id = attribute("id", line) {
                out.append((id, 0, [], []))
            } else if line.hasPrefix("<SegmentList "), let scale = attribute("timescale", line).flatMap(Double.init) {
                out[out.count - 1].timescale = scale
            } else if line.hasPrefix("<S "), let t = attribute("t", line).flatMap(Double.init), let d = attribute("d", line).flatMap(Double.init) {
                let repeats = attribute("r", line).flatMap(Int.init) ?? 0
                for index in 0 ... repeats { out[out.count - 1].spans.append((t + Double(index) * d, d)) }
            } else if line.hasPrefix("<SegmentURL "), let media = attribute("media", line) {
                out[out.count - 1].files.append(media)
            }
        }
        return out
    }

    @Test("manifest.mpd describes the same files as DASH: ffmpeg plays it, timelines match the HLS playlists, the same pictures")
    func dash() async throws {
        let scratch = try ScratchFolder()
        let source = try await Self.clip(scratch, "clip.mp4", width: 320, height: 568, seconds: 7, audio: true)
        let out = scratch.path("out")
        let run = try await FeedProcess.run(["hls", source, "-o", out, "--ladder", "320,160", "--segment", "3", "--gop", "1"])
        try #require(run.status == 0, "\(run.stderr)")
        let mpd = try String(contentsOfFile: out + "/manifest.mpd", encoding: .utf8)
        #expect(mpd.contains(#"type="static""#) && mpd.contains(#"contentType="audio""#))
        let representations = Self.representations(mpd)
        #expect(representations.map(\.id) == ["320p", "160p", "audio"])
        for representation in representations {
            let text = try String(contentsOfFile: out + "/\(representation.id)/index.m3u8", encoding: .utf8)
            let playlist = try HLSPlaylist(parsing: text, path: representation.id)
            #expect(representation.files == playlist.segments.map { representation.id + "/" + $0.uri })
            #expect(representation.spans.count == playlist.segments.count)
            var expectedStart = representation.spans.first?.0 ?? 0
            for (span, segment) in zip(representation.spans, playlist.segments) {
                // Contiguous, and each as long as its EXTINF (which rounds to the microsecond).
                #expect(span.0 == expectedStart, "\(representation.id): \(representation.spans)")
                #expect(abs(span.1 / representation.timescale - segment.duration) < 0.001, "\(representation.id): \(span) vs \(segment)")
                expectedStart = span.0 + span.1
            }
        }
        let decode = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", out + "/manifest.mpd", "-map", "0", "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
        // The first representation's pictures are the 320p rung's (hashes; DASH shifts timestamps).
        func hashes(_ input: String) async throws -> [String] {
            let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", input, "-map", "0:v:0", "-f", "framemd5", "-"])
            return run.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
        }
        let dashPictures = try await hashes(out + "/manifest.mpd")
        let hlsPictures = try await hashes(out + "/320p/index.m3u8")
        #expect(dashPictures.count == 210 && dashPictures == hlsPictures, "\(dashPictures.count) vs \(hlsPictures.count)")
    }

    @Test("a rotation tag is applied: a landscape-coded clip tagged 90° makes portrait rungs, untagged")
    func rotation() async throws {
        let scratch = try ScratchFolder()
        let source = try await Self.clip(scratch, "turned.mp4", width: 320, height: 180, seconds: 2, rotate: 90)
        let info = try MediaProbe.probe(path: source)
        try #require(info.displayWidth == 180 && info.displayHeight == 320, "ffmpeg did not tag the rotation: \(info)")
        let out = scratch.path("out")
        let run = try await FeedProcess.run(["hls", source, "-o", out, "--ladder", "180,120"])
        try #require(run.status == 0, "\(run.stderr)")
        let variants = try HLSMaster.variants(at: out + "/master.m3u8")
        #expect(variants.map(\.resolution) == ["180x320", "120x214"])
        // feed refuses playlists as input, so probe the first segment joined to its init segment.
        let joined = scratch.url("joined.mp4")
        try (Data(contentsOf: URL(fileURLWithPath: out + "/180p/init.mp4")) + Data(contentsOf: URL(fileURLWithPath: out + "/180p/segment_00000.m4s")))
            .write(to: joined)
        let probe = try MediaProbe.probe(path: joined.path)
        #expect(probe.rotation == 0 && probe.codedWidth == 180 && probe.codedHeight == 320, "\(probe)")
    }

    /// Mean SSIM (ffmpeg's `All`) of `rung`'s pictures against `source` scaled to `size` with lanczos.
    static func ssim(_ rung: String, against source: String, size: String) async throws -> Double {
        let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "info", "-nostats", "-i", rung, "-i", source, "-filter_complex",
                                                         "[0:v]setpts=PTS-STARTPTS[a];[1:v]setpts=PTS-STARTPTS,scale=\(size):flags=lanczos[b];[a][b]ssim=shortest=1",
                                                         "-f", "null", "-"])
        try #require(run.status == 0, "ssim: \(run.stderr)")
        let line = try #require(run.stderr.split(separator: "\n").last { $0.contains("SSIM") && $0.contains("All:") })
        let all = try #require(line.split(separator: " ").first { $0.hasPrefix("All:") })
        return try #require(Double(all.dropFirst(4)))
    }

    @Test("a rung at most half another's size is scaled from that rung's picture: upright, every picture, aligned, the source's picture",
          arguments: [0, 90])
    func cascade(rotate: Int) async throws {
        let scratch = try ScratchFolder()
        // Upright 360x640 either way: coded so, or coded 640x360 and tagged 90°.
        let source = try await Self.clip(scratch, "clip.mp4", width: rotate == 0 ? 360 : 640, height: rotate == 0 ? 640 : 360, seconds: 4,
                                         rotate: rotate)
        let out = scratch.path("out")
        // 320x568 scales the source; 160x284 is at most half of it, so it is scaled from 320p's picture.
        let run = try await FeedProcess.run(["hls", source, "-o", out, "--ladder", "320,160", "--segment", "2", "--gop", "1", "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let variants = try #require(summary["variants"] as? [[String: Any]])
        #expect(variants.map { "\($0["width"]!)x\($0["height"]!)" } == ["320x568", "160x284"])
        // Every picture reaches the rung fed by the other, the last ones too.
        #expect(variants.map { $0["frames"] as? Int } == [120, 120], "\(variants)")
        var starts: [[Double]] = []
        for (name, size) in [("320p", "320:568"), ("160p", "160:284")] {
            let rung = out + "/" + name
            let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                                                rung + "/index.m3u8"])
            // (The playlist's stream is listed twice: in its program and on its own.)
            #expect(Set(probe.stdout.split(separator: "\n")) == [Substring(size.replacingOccurrences(of: ":", with: ","))], "\(probe.stdout)")
            // The upright source's picture, not a turned or stale one: a sideways or repeated
            // picture of testsrc2 scores far below 0.9.
            let score = try await Self.ssim(rung + "/index.m3u8", against: source, size: size)
            #expect(score > 0.9, "\(name) SSIM \(score)")
            let segments = try await Self.segmentStarts(rung, scratch: scratch)
            let allKeys = segments.allSatisfy { $0.key }
            #expect(allKeys, "\(name): \(segments)")
            starts.append(segments.map(\.pts))
        }
        #expect(starts[0].count == 2 && starts[0] == starts[1], "\(starts)")
    }

    @Test("a clip shorter than a segment makes one segment per rung; a source below every rung keeps its own size")
    func shortAndSmall() async throws {
        let scratch = try ScratchFolder()
        let source = try await Self.clip(scratch, "tiny.mp4", width: 96, height: 160, seconds: 1.5)
        let out = scratch.path("out")
        let run = try await FeedProcess.run(["hls", source, "-o", out, "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let variants = try HLSMaster.variants(at: out + "/master.m3u8")
        #expect(variants.map(\.uri) == ["96p/index.m3u8"])
        #expect(variants.first?.resolution == "96x160")
        #expect(variants.first?.codecs?.contains("mp4a") == false)
        let playlist = try HLSPlaylist(parsing: try String(contentsOfFile: out + "/96p/index.m3u8", encoding: .utf8), path: out)
        #expect(playlist.segments.count == 1)
        #expect(abs(playlist.duration - 1.5) < 0.05, "\(playlist.segments)")
        #expect(playlist.targetDuration == 2)
        let decode = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", out + "/master.m3u8", "-map", "0", "-f", "null", "-"])
        #expect(decode.status == 0, "\(decode.stderr)")
    }

    @Test("an empty -o is a usage error (64) that says what -o needs, for every command that writes a file or folder",
          arguments: [["hls", "in.mp4", "-o", ""], ["faststart", "in.mp4", "-o", ""], ["storyboard", "in.mp4", "-o", ""],
                      ["stack", "a.mp4", "b.mp4", "-o", ""]])
    func emptyOutput(arguments: [String]) async throws {
        let run = try await FeedProcess.run(arguments)
        #expect(run.status == 64 && run.stderr.contains("-o needs a"), "\(arguments[0]): \(run.status) \(run.stderr)")
    }

    @Test("failures leave no folder: not media 65, missing 66, output exists 73, bad options 64, SIGINT 130")
    func failures() async throws {
        let scratch = try ScratchFolder()
        let junk = try scratch.write("junk.mp4", "not a video at all")
        let out = scratch.path("out")
        let notMedia = try await FeedProcess.run(["hls", junk, "-o", out])
        #expect(notMedia.status == 65 && notMedia.stderr.contains("junk.mp4"), "\(notMedia.stderr)")
        #expect(try await FeedProcess.run(["hls", scratch.path("missing.mp4"), "-o", out]).status == 66)
        for bad in [["--ladder", "720,abc"], ["--ladder", "720,720"], ["--segment", "0"], ["--gop", "7"], ["--crf", "60"],
                    ["--maxrate", "1M"], ["--preset", "turbo"]] {
            let run = try await FeedProcess.run(["hls", junk, "-o", out] + bad)
            #expect(run.status == 64 && run.stderr.hasPrefix("feed: \(bad[0]) "), "\(bad): \(run.status) \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["junk.mp4"])

        let source = try await Self.clip(scratch, "clip.mp4", width: 64, height: 112, seconds: 1)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let exists = try await FeedProcess.run(["hls", source, "-o", out])
        #expect(exists.status == 73 && exists.stderr == "feed: \(out): already exists; pass --force to replace it\n", "\(exists.stderr)")
        let forced = try await FeedProcess.run(["hls", source, "-o", out, "--force"])
        #expect(forced.status == 0 && FileManager.default.fileExists(atPath: out + "/master.m3u8"), "\(forced.stderr)")
        let again = try await FeedProcess.run(["hls", source, "-o", out, "--force"])
        #expect(again.status == 0, "a ladder replaces a ladder: \(again.stderr)")
        // --force replaces a ladder, never a folder holding anything else: 73, and nothing lost.
        let precious = scratch.path("precious")
        try FileManager.default.createDirectory(atPath: precious + "/360p", withIntermediateDirectories: true)
        _ = try scratch.write("precious/notes.txt", "keep me")
        _ = try scratch.write("precious/360p/index.m3u8", "#EXTM3U")
        let refused = try await FeedProcess.run(["hls", source, "-o", precious, "--force"])
        #expect(refused.status == 73 && refused.stderr.hasPrefix("feed: \(precious): holds notes.txt, which is not part of a ladder"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: precious + "/notes.txt", encoding: .utf8) == "keep me")
        try FileManager.default.removeItem(atPath: precious + "/notes.txt")
        try FileManager.default.copyItem(atPath: source, toPath: precious + "/360p/clip.mp4")
        let own = try await FeedProcess.run(["hls", precious + "/360p/clip.mp4", "-o", precious, "--force"])
        #expect(own.status == 73 && own.stderr.contains("holds clip.mp4"), "the input inside the output: \(own.stderr)")
        #expect(FileManager.default.fileExists(atPath: precious + "/360p/clip.mp4"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).allSatisfy { !$0.hasPrefix(".") }, "no work folder left")

        // Interrupted mid-way: 130 and no output, no hidden folder.
        let long = try await Self.clip(scratch, "long.mp4", width: 720, height: 1280, seconds: 20)
        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = ["hls", long, "-o", scratch.path("late"), "--preset", "slow"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Wait until a rung's folder in the work folder holds a file, so the signal lands mid-encode.
        let encoding = {
            let fm = FileManager.default
            guard let work = (try? fm.contentsOfDirectory(atPath: scratch.url.path))?.first(where: { $0.hasPrefix(".late.") }) else { return false }
            return ((try? fm.subpathsOfDirectory(atPath: scratch.path(work))) ?? []).contains { $0.contains("/") }
        }
        let child = try await promptly {
            let child = try await ChildProcess.start(process)
            let caught = try await waitUntil(timeout: 60) { encoding() || child.hasExited }
            #expect(caught && !child.hasExited, "feed hls ended, or wrote nothing, before it could be interrupted")
            child.signal(SIGINT)
            return child
        }
        #expect(await child.exitStatus() == 130)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(!left.contains("late") && !left.contains { $0.hasPrefix(".late.") }, "\(left)")
    }
}
