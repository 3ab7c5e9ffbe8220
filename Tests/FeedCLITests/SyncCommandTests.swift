import Foundation
import Testing
import FeedCore
import FeedTestSupport

/// `feed sync` and `feed stack --sync audio`, run as a user would, on corpus pairs whose video
/// shows the scene's frame number (so a stacked output shows whether it is in sync).
@Suite("feed sync")
struct SyncCommandTests {
    static func corpus() async throws -> [SyncCorpus.Pair] { try await SyncCorpus.pairs(count: 8, seconds: 20) }
    static func shared() async throws -> SyncCorpus.Pair { try #require(try await corpus().first { ($0.snr ?? 0) >= 10 && $0.offset != nil }) }
    static func unrelated() async throws -> SyncCorpus.Pair { try #require(try await corpus().first { $0.offset == nil }) }

    @Test("prints 'offset S s (confidence C)' and exits 0; --json has offset, confidence and searched")
    func found() async throws {
        let pair = try await Self.shared()

        let text = try await FeedProcess.run(["sync", pair.front, pair.back])
        let json = try await FeedProcess.run(["sync", pair.front, pair.back, "--json"])

        #expect(text.status == 0 && text.stderr.isEmpty, "\(text.stderr)")
        let words = text.stdout.split(separator: " ")
        #expect(words.count == 5 && words[0] == "offset" && words[2] == "s" && words[3] == "(confidence", "\(text.stdout)")
        let printed = try #require(Double(words[1]))
        #expect(abs(printed - pair.offset!) <= 0.033, "\(pair): \(text.stdout)")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try json.json() as? [String: Any])
        #expect(Set(object.keys) == ["offset", "confidence", "searched"])
        #expect(abs((object["offset"] as? Double ?? .nan) - printed) < 1e-9)
        #expect((object["confidence"] as? Double ?? 0) >= 2.5)
        #expect(object["searched"] as? [Double] == [-10, 10])
    }

    @Test("no shared sound: one line naming both files, exit 65; --json still prints the object with offset null")
    func refused() async throws {
        let pair = try await Self.unrelated()

        let text = try await FeedProcess.run(["sync", pair.front, pair.back])
        let json = try await FeedProcess.run(["sync", pair.front, pair.back, "--json"])

        #expect(text.status == 65 && text.stdout.isEmpty)
        #expect(text.stderr.hasPrefix("feed: \(pair.front) and \(pair.back): no offset between -10 and 10 s fits clearly"), "\(text.stderr)")
        #expect(text.stderr.split(separator: "\n").count == 1)
        #expect(json.status == 65)
        let object = try #require(try json.json() as? [String: Any])
        #expect(object["offset"] is NSNull && (object["confidence"] as? Double ?? 9) < 2.5)
    }

    @Test("options out of range exit 64 naming the flag", arguments: [["--max-offset", "0"], ["--max-offset", "61"], ["--min-confidence", "0.5"]])
    func badOptions(extra: [String]) async throws {
        let pair = try await Self.shared()
        let run = try await FeedProcess.run(["sync", pair.front, pair.back] + extra)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("feed: --"), "\(run.stderr)")
    }

    @Test("a missing file exits 66, a clip without an audio track 65, each naming the file")
    func badInputs() async throws {
        let folder = try ScratchFolder()
        let pair = try await Self.shared()
        let mute = try NumberedClip.write(folder.path("mute.mp4"), frames: 30)

        let missing = try await FeedProcess.run(["sync", folder.path("none.mp4"), pair.back])
        let silent = try await FeedProcess.run(["sync", pair.front, mute])

        #expect(missing.status == 66 && missing.stderr == "feed: \(folder.path("none.mp4")): no such file\n", "\(missing.stderr)")
        #expect(silent.status == 65 && silent.stderr == "feed: \(mute): has no audio track to line up by\n", "\(silent.stderr)")
    }

    @Test("stack --sync audio: the stacked frames show the same scene frame top and bottom; --json reports the offset")
    func stackInSync() async throws {
        let folder = try ScratchFolder()
        let pair = try await Self.shared()
        let out = folder.path("out.mp4")

        let run = try await FeedProcess.run(["stack", pair.front, pair.back, "--sync", "audio", "-o", out, "--preset", "ultrafast", "--json"])

        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try run.json() as? [String: Any])
        let offset = try #require(summary["offset"] as? Double)
        #expect(abs(offset - pair.offset!) <= 0.033)
        #expect((summary["sync_confidence"] as? Double ?? 0) >= 2.5)
        // The corpus clips are 10 fps and show scene frame (start * 10 + n) mod 256 in their top quarter.
        let reader = try MediaReader(path: out)
        var compared = 0
        while let frame = try reader.nextVideoFrame() {
            let time = frame.time
            // Only where both clips have started and neither has ended: elsewhere one holds a frame.
            guard time >= max(0, offset) + 0.2 && time <= min(20, 20 + offset) - 0.2 else { continue }
            let top = NumberedClip.number(in: frame, y: 0, height: 64), bottom = NumberedClip.number(in: frame, y: 64, height: 64)
            let apart = min((top - bottom + 256) % 256, (bottom - top + 256) % 256)
            #expect(apart <= 1, "at \(time) s the back shows scene frame \(top), the front \(bottom)")
            compared += 1
        }
        #expect(compared > 50)
    }

    @Test("stack --sync audio on clips that share no sound: exit 65 before stacking, no output")
    func stackRefused() async throws {
        let folder = try ScratchFolder()
        let pair = try await Self.unrelated()

        let run = try await FeedProcess.run(["stack", pair.front, pair.back, "--sync", "audio", "-o", folder.path("out.mp4")])

        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("no offset between -10 and 10 s fits clearly"), "\(run.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("the documented pipeline: the offset `feed sync --json` prints, negative here, is taken by `feed stack --offset` as the next word")
    func negativeOffsetPipeline() async throws {
        let folder = try ScratchFolder()
        let pair = try #require(try await Self.corpus().first { ($0.snr ?? 0) >= 10 && ($0.offset ?? 0) < 0 })
        let sync = try await FeedProcess.run(["sync", pair.front, pair.back, "--json"])
        let offset = try #require((try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)) as? [String: Any])?["offset"] as? Double)
        #expect(offset < 0, "\(pair): \(sync.stdout)")
        let out = folder.path("out.mp4")
        let stack = try await FeedProcess.run(["stack", pair.front, pair.back, "--offset", String(offset), "-o", out, "--preset", "ultrafast"])
        #expect(stack.status == 0 && FileManager.default.fileExists(atPath: out), "--offset \(offset): \(stack.stderr)")
    }

    @Test("--offset with --sync is a usage error (64)")
    func offsetAndSync() async throws {
        let pair = try await Self.shared()
        let run = try await FeedProcess.run(["stack", pair.front, pair.back, "--sync", "audio", "--offset", "1", "-o", "/nonexistent/x.mp4"])
        #expect(run.status == 64 && run.stderr.hasPrefix("feed: --sync cannot be used with offset"), "\(run.stderr)")
    }

    @Test("stack --sync audio --save records sync, the offset and its confidence in the recording's stack_options")
    func saved() async throws {
        let home = try RollHome()
        let pair = try await Self.shared()
        let out = home.folder.path("out.mp4")

        let run = try await home.run(["stack", pair.front, pair.back, "--sync", "audio", "-o", out, "--preset", "ultrafast", "--save", "--json"])

        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try run.json() as? [String: Any])
        let row = try #require(try await home.rows().first)
        let saved = try #require(row["stack_options"] as? [String: Any], "stack_options is an object")
        #expect(saved["sync"] as? String == "audio")
        #expect(saved["offset"] as? Double == summary["offset"] as? Double)
        #expect(saved["sync_confidence"] as? Double == summary["sync_confidence"] as? Double)
    }

    @Test("feed serve: a stack job with \"sync\":\"audio\" stacks at the offset found; sync with offset is 400; no shared sound fails the job")
    func serverJob() async throws {
        let home = try RollHome()
        let pair = try await Self.shared(), other = try await Self.unrelated()
        #expect(try await home.run(["roll", "add", pair.front, pair.back, other.front, other.back]).status == 0)
        let server = try await ServeProcess(["--quiet"], home: home)

        let both = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":1},"back":{"recording":2},"options":{"sync":"audio","offset":1}}"#])
        let synced = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":1},"back":{"recording":2},"options":{"sync":"audio","preset":"ultrafast"}}"#])
        let refused = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":3},"back":{"recording":4},"options":{"sync":"audio"}}"#])

        #expect(both.status == 422 && both.text.contains("options.sync cannot be used with offset"), "\(both.text)")
        #expect(synced.status == 202 && refused.status == 202)
        let done = try await ServeJobsTests.wait(server, job: 1, until: { $0 == "done" || $0 == "failed" })
        let failed = try await ServeJobsTests.wait(server, job: 2, until: { $0 == "done" || $0 == "failed" })
        #expect(done["state"] as? String == "done", "\(done)")
        let recording = try #require(done["recording_id"] as? Int)
        let shown = try await server.curl("/roll/\(recording)").json()
        let saved = try #require(shown["stack_options"] as? [String: Any], "stack_options is an object")
        #expect(saved["sync"] as? String == "audio" && abs((saved["offset"] as? Double ?? 99) - pair.offset!) <= 0.033)
        #expect(failed["state"] as? String == "failed", "\(failed)")
        #expect((failed["error"] as? String ?? "").contains("no offset between -10 and 10 s fits clearly"), "\(failed)")
        await server.stop()
    }
}
