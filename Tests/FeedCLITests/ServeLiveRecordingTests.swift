import FeedTestSupport
import Foundation
import Testing

/// A live stream's life after its publisher: the reconnect window, the recording it becomes,
/// the `live.*` webhooks, and a server killed mid-stream. Real `feed serve`, ffmpeg publishing
/// over RTMP, ffmpeg reading the recording back.
@Suite("feed serve: live streams become recordings")
struct ServeLiveRecordingTests {
    /// An FLV clip as a publisher sends it: H.264 (4:2:0, a key frame a second, no B-frames) and AAC;
    /// clips of other patterns have the same sequence header, as one encoder's reconnects do.
    static func clip(_ path: String, pattern: String, seconds: Int) async throws {
        let made = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "\(pattern)=size=320x240:rate=30",
                                                          "-f", "lavfi", "-i", "sine=frequency=440", "-t", String(seconds),
                                                          "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30", "-bf", "0",
                                                          "-c:a", "aac", "-f", "flv", path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// ffmpeg sending `clip` at real time, as it is, to `url`.
    static func publish(_ clip: String, to url: String, log: URL) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-re", "-i", clip, "-c", "copy", "-f", "flv", url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        return try ChildProcess(process)
    }

    /// The hash of each decoded video frame of `input`.
    static func frames(_ input: String) async throws -> [String] {
        let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", input, "-map", "0:v", "-fps_mode", "passthrough",
                                                         "-f", "framemd5", "-"])
        try #require(run.status == 0, "\(input): \(run.stderr)")
        return run.stdout.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The top-level boxes of the MP4 at `path`, in order.
    static func topLevelBoxes(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var boxes: [String] = [], offset = 0
        while offset + 8 <= data.count {
            var size = data[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[offset + 4 ..< offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= data.count { size = data[offset + 8 ..< offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            guard size >= 8 else { break }
            boxes.append(type)
            offset += size
        }
        return boxes
    }

    /// Waits for stream 1 of `serve` to be ended with its recording, and returns the recording
    /// as `GET /roll/{id}` gives it.
    static func recording(of serve: ServeProcess) async throws -> [String: Any] {
        var shown: [String: Any] = [:]
        let recorded = try await waitUntil(timeout: 90, every: 0.25) {
            shown = try await serve.curl("/live/1").json()
            return shown["recording_id"] is Int
        }
        #expect(recorded && shown["state"] as? String == "ended", "\(shown)")
        let id = try #require(shown["recording_id"] as? Int)
        return try await serve.curl("/roll/\(id)").json()
    }

    @Test("a publisher back within the window continues the stream (a discontinuity); after the window it ends and becomes a recording whose frames are both publishers' (framemd5), moov first; the live.* webhooks are delivered, signed")
    func reconnectAndRecord() async throws {
        let home = try RollHome()
        let folder = try ScratchFolder()
        let first = folder.path("first.flv"), second = folder.path("second.flv")
        try await Self.clip(first, pattern: "testsrc", seconds: 3)
        try await Self.clip(second, pattern: "smptebars", seconds: 2)

        let secret = home.folder.path("hook.key"), log = home.folder.path("received.jsonl"), portFile = home.folder.path("port")
        try Data("a-webhook-secret-of-32-bytes-ok!\n".utf8).write(to: URL(fileURLWithPath: secret))
        let receiverProcess = Process()
        receiverProcess.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        receiverProcess.arguments = [ServeWebhookTests.receiverScript, "--secret-file", secret, "--log", log, "--port-file", portFile]
        let receiver = try ChildProcess(receiverProcess)
        defer { receiver.signal(SIGKILL) }
        try #require(try await waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: portFile) })
        let hook = "http://127.0.0.1:\(try String(contentsOfFile: portFile, encoding: .utf8))/hooks"

        // A window long enough for a slow machine to start the second ffmpeg, short enough to wait out.
        let serve = try await ServeProcess(["--rtmp-port", "0", "--live-reconnect-window", "8", "--webhook", hook,
                                            "--webhook-secret-file", secret], home: home)
        let stream = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"title":"two takes"}"#]).json()
        let url = try #require(stream["rtmp_url"] as? String) + "/" + (try #require(stream["stream_key"] as? String))

        let one = try Self.publish(first, to: url, log: folder.url("one.log"))
        #expect(await one.exitStatus() == 0, "\(String(decoding: (try? Data(contentsOf: folder.url("one.log"))) ?? Data(), as: UTF8.self))")
        #expect(try await serve.curl("/live/1").json()["state"] as? String == "active", "within the window the stream stays active")
        let two = try Self.publish(second, to: url, log: folder.url("two.log"))
        #expect(await two.exitStatus() == 0, """
            the publisher back within the window is accepted: \(String(decoding: (try? Data(contentsOf: folder.url("two.log"))) ?? Data(), as: UTF8.self)) \
            \(serve.stderr)
            """)
        let playlist = try await serve.curl("/live/1/index.m3u8").text
        #expect(playlist.contains("#EXT-X-DISCONTINUITY"), "\(playlist)")

        // The window passes: the stream ends and its recording comes.
        let recording = try await Self.recording(of: serve)
        #expect(recording["title"] as? String == "two takes")
        let file = home.recordings.appendingPathComponent(try #require(recording["file_name"] as? String)).path
        let boxes = try Self.topLevelBoxes(file)
        #expect(boxes.firstIndex(of: "moov").map { $0 < (boxes.firstIndex(of: "mdat") ?? 0) } == true, "\(boxes)")
        let expected = try await Self.frames(first) + Self.frames(second)
        let got = try await Self.frames(file)
        #expect(got == expected, "recorded \(got.count) frames, published \(expected.count)")
        let ended = try await serve.curl("/live/1/index.m3u8").text
        #expect(ended.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(home.hidden(".live").isEmpty,
                "the live recording's parts are gone once it is in the roll")

        let types = ["live.connected", "live.active", "live.disconnected", "live.ended", "live.recording.ready"]
        let delivered = try await waitUntil(timeout: 60) {
            Set(ServeWebhookTests.received(log).filter { $0["status"] as? Int == 200 }.compactMap { $0["type"] as? String }).isSuperset(of: types)
        }
        let lines = ServeWebhookTests.received(log)
        #expect(delivered, "\(lines.compactMap { $0["type"] })")
        #expect(lines.allSatisfy { $0["verified"] as? Bool == true })
        let connected = lines.filter { $0["type"] as? String == "live.connected" }.compactMap { $0["event_id"] as? String }
        #expect(Set(connected).count == 2, "a connection each: \(connected)")
        #expect(await serve.stop() == 0)
    }

    @Test("a server killed mid-stream: after its restart the stream is ended and its recording holds every part the playlist had listed")
    func killedMidStream() async throws {
        let home = try RollHome()
        let folder = try ScratchFolder()
        let serve = try await ServeProcess(["--rtmp-port", "0"], home: home)
        let stream = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"title":"cut"}"#]).json()
        let url = try #require(stream["rtmp_url"] as? String) + "/" + (try #require(stream["stream_key"] as? String))
        let publisher = try ServeLiveTests.publisher(url, seconds: 600, log: folder.url("publisher.log"))
        defer { publisher.signal(SIGKILL) }
        // Two segments and more listed: what a player had seen when the server died.
        var listed = ""
        try #require(try await waitUntil(timeout: 60, every: 0.2) {
            listed = try await serve.curl("/live/1/index.m3u8").text
            return listed.components(separatedBy: "#EXTINF:").count > 3
        })
        let seen = listed.split(whereSeparator: \.isNewline).compactMap { line -> Double? in
            guard line.hasPrefix("#EXTINF:") else { return nil }
            return Double(line.dropFirst(8).prefix { $0 != "," })
        }.reduce(0, +)
        await serve.crash()
        publisher.signal(SIGKILL)
        #expect(await publisher.exits(within: 30))

        let restarted = try await ServeProcess([], home: home)
        let recording = try await Self.recording(of: restarted)
        let duration = try #require(recording["duration"] as? Double)
        #expect(duration >= seen - 0.05, "the recording (\(duration) s) holds the \(seen) s of segments listed before the kill")
        #expect(await restarted.stop() == 0)
    }
}
