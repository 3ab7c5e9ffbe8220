import FeedTestSupport
import Foundation
import Testing

/// `feed live publish`: feed's own RTMP client sending files at real time to a real `feed serve`,
/// the stream read back from the recording it becomes, and its refusals.
@Suite("feed live publish")
struct LivePublishCommandTests {
    /// An MP4 as a phone or ffmpeg makes one: H.264 with B-frames (so decoding and presentation
    /// times differ), a key frame a second, AAC.
    static func clip(_ path: String, size: String = "320x240", seconds: Int = 2, arguments: [String] = []) async throws {
        let made = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30",
                                                          "-f", "lavfi", "-i", "sine=frequency=440", "-t", String(seconds),
                                                          "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30", "-bf", "2",
                                                          "-c:a", "aac"] + arguments + [path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// `feed live publish` as a child process, its stderr in `log`.
    static func publisher(_ arguments: [String], log: URL) throws -> ChildProcess {
        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = ["live", "publish"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        return try ChildProcess(process)
    }

    @Test("two files go out back to back with continuous timestamps: the recording's frames are both files' (framemd5), B-frames and all; the key never shows; a wrong key exits 77; --loop runs until SIGINT (130, unpublished: the key publishes again)")
    func publishToServe() async throws {
        let folder = try ScratchFolder()
        let clip = folder.path("clip.mp4")
        try await Self.clip(clip)
        let serve = try await ServeProcess(["--rtmp-port", "0"])
        let stream = try await serve.curl("/live", ["-X", "POST", "-d", #"{"title":"publish"}"#]).json()
        let key = try #require(stream["stream_key"] as? String)
        let rtmp = try #require(stream["rtmp_url"] as? String)

        let wrong = try await FeedProcess.run(["live", "publish", clip, "--to", rtmp + "/sk_" + String(repeating: "0", count: 40)])
        #expect(wrong.status == 77 && wrong.stderr.contains("refused: NetStream.Publish.BadName") && !wrong.stderr.contains("sk_0"), "\(wrong.stderr)")

        let sent = try await FeedProcess.run(["live", "publish", clip, clip, "--to", rtmp + "/" + key], limited: false)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stderr.contains("publishing 2 files (320x240, 30 fps, H.264 + AAC) to \(rtmp)/<key>") && !sent.stderr.contains(key),
                "\(sent.stderr)")
        #expect(sent.stderr.contains("sent 4.") && sent.stdout.isEmpty, "\(sent.stderr)")

        // Looping until stopped: SIGINT unpublishes and exits 130.
        let log = folder.url("loop.log")
        let looping = try Self.publisher([clip, "--to", rtmp + "/" + key, "--loop"], log: log)
        defer { looping.signal(SIGKILL) }
        try await waitUntil(timeout: 30, every: 0.2) { (try? String(contentsOf: log, encoding: .utf8))?.contains("looping") == true }
        // Two passes of the loop (the clip is two one-second segments long) past where it began.
        let begun = Self.lastSegment(try await serve.curl("/live/1/index.m3u8").text)
        try await waitUntil(timeout: 60, every: 0.25) { Self.lastSegment(try await serve.curl("/live/1/index.m3u8").text) >= begun + 4 }
        looping.signal(SIGINT)
        #expect(await looping.exitStatus() == 130)
        let stopped = try String(contentsOf: log, encoding: .utf8)
        #expect(stopped.contains("stopped after") && stopped.contains("the stream was unpublished") && !stopped.contains(key), "\(stopped)")
        // The publisher left: the same key is taken again at once (one publisher per stream).
        let again = try await FeedProcess.run(["live", "publish", clip, "--to", rtmp + "/" + key], limited: false)
        #expect(again.status == 0, "\(again.stderr)")

        #expect(try await serve.curl("/live/1", ["-X", "DELETE"]).status == 200)
        let recording = try await ServeLiveRecordingTests.recording(of: serve)
        let file = try #require(recording["file_name"] as? String, "\(recording)")
        let recorded = try await ServeLiveRecordingTests.frames(serve.home.recordings.appendingPathComponent(file).path)
        let one = try await ServeLiveRecordingTests.frames(clip)
        #expect(one.count == 60)
        // Two passes, then the loop's (stopped mid-pass, at least one whole), then one more pass.
        #expect(one.count == 60 && recorded.count >= 4 * one.count, "\(recorded.count) frames")
        #expect(Array(recorded.prefix(2 * one.count)) == one + one && Array(recorded.suffix(one.count)) == one)
        // The loop's whole passes are the clip's frames; the pass SIGINT cut holds frames of the
        // clip in order, up to where it stopped (in decoding order: a B-frame shown before the
        // last frame sent may be missing).
        let loop = Array(recorded.dropFirst(2 * one.count).dropLast(one.count))
        let whole = loop.count / one.count * one.count
        #expect(whole >= one.count && (0..<whole).allSatisfy { loop[$0] == one[$0 % one.count] }, "\(loop.count) frames in the loop")
        let cut = loop[whole...].map { one.firstIndex(of: $0) ?? -1 }
        #expect(!cut.contains(-1) && zip(cut, cut.dropFirst()).allSatisfy { $0 < $1 }, "the cut pass: \(cut)")
        #expect(await serve.stop() == 0)
    }

    /// The number of the last segment the playlist lists, or -1.
    static func lastSegment(_ playlist: String) -> Int {
        playlist.split(whereSeparator: \.isNewline).compactMap { line -> Int? in
            guard line.hasPrefix("seg_") else { return nil }
            return Int(line.dropFirst(4).prefix { $0.isNumber })
        }.max() ?? -1
    }

    @Test("refusals before anything is sent: a bad URL 64, a missing file 66, a codec other than H.264 or AAC 65, files encoded differently 65, no server listening 70; each one line naming the file or the URL without its key")
    func refusals() async throws {
        let folder = try ScratchFolder()
        let clip = folder.path("clip.mp4"), wide = folder.path("wide.mp4"), mpeg4 = folder.path("mpeg4.mp4"), opus = folder.path("opus.mkv")
        try await Self.clip(clip)
        try await Self.clip(wide, size: "480x240")
        try await Self.clip(mpeg4, arguments: ["-c:v", "mpeg4"])
        try await Self.clip(opus, arguments: ["-c:a", "libopus"])
        let target = "rtmp://127.0.0.1:9/live/sk_secret"
        func publish(_ arguments: String...) async throws -> FeedRun { try await FeedProcess.run(["live", "publish"] + arguments) }

        let scheme = try await publish(clip, "--to", "http://127.0.0.1/live/sk_secret")
        #expect(scheme.status == 64 && scheme.stderr == "feed: http://127.0.0.1/live/<key>: not an rtmp:// URL\n", "\(scheme.stderr)")
        let noKey = try await publish(clip, "--to", "rtmp://127.0.0.1/live")
        #expect(noKey.status == 64 && noKey.stderr.contains("expected rtmp://host[:port]/app/key"), "\(noKey.stderr)")
        let missing = try await publish(folder.path("nope.mp4"), "--to", target)
        #expect(missing.status == 66 && missing.stderr == "feed: \(folder.path("nope.mp4")): no such file\n", "\(missing.stderr)")
        let video = try await publish(clip, mpeg4, "--to", target)
        #expect(video.status == 65 && video.stderr.hasPrefix("feed: \(mpeg4): refused: its video is mpeg4;"), "\(video.stderr)")
        let audio = try await publish(opus, "--to", target)
        #expect(audio.status == 65 && audio.stderr.hasPrefix("feed: \(opus): refused: its audio is opus;"), "\(audio.stderr)")
        let differs = try await publish(clip, wide, "--to", target)
        #expect(differs.status == 65 && differs.stderr.contains("\(wide): refused: its H.264 configuration (480x240) differs from"),
                "\(differs.stderr)")
        let closed = try await publish(clip, "--to", target)
        #expect(closed.status == 70 && closed.stderr.hasPrefix("feed: rtmp://127.0.0.1:9/live/<key>: cannot connect:")
                && !closed.stderr.contains("sk_secret"), "\(closed.stderr)")
        for run in [scheme, noKey, missing, video, audio, differs, closed] {
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stdout.isEmpty, "\(run.stderr)")
        }
    }
}
