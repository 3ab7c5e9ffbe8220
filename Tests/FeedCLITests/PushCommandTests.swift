import FeedTestSupport
import Foundation
import Testing

/// `feed push` against a real `feed serve`: ids printed, resumed after a SIGKILL of the server,
/// exit statuses.
@Suite("feed push")
struct PushCommandTests {
    @Test("pushes files into the server's roll and prints their ids; --json has what was sent")
    func pushes() async throws {
        let serve = try await ServeProcess(["--quiet"])
        let folder = try ScratchFolder()
        let a = try await RemoteMedia.clip(folder.url("a.mp4").path, pattern: "testsrc", tone: 440)
        let b = try await RemoteMedia.clip(folder.url("b.mp4").path, pattern: "testsrc2", tone: 660)
        let state = ["XDG_STATE_HOME": folder.url("state").path]
        let text = try await FeedProcess.run(["push", a, "--server", serve.base, "--title", "Beach"], environment: state)
        #expect(text.status == 0 && text.stdout.hasPrefix("pushed \(a) as #1 ("), "\(text.stdout)\(text.stderr)")
        let json = try await FeedProcess.run(["push", b, "--json"], environment: state.merging(["FEED_SERVER": serve.base]) { $1 })
        #expect(json.status == 0, "\(json.stderr)")
        let pushed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let size = try RemoteMedia.size(b)
        #expect(pushed.count == 1 && pushed[0]["recording_id"] as? Int == 2 && pushed[0]["bytes"] as? Int64 == size
            && pushed[0]["sent"] as? Int64 == size && pushed[0]["resumed_from"] as? Int == 0, "\(pushed)")
        let rows = try await serve.home.rows()
        #expect(rows.map { $0["sha256"] as? String } == [try RemoteMedia.sha256(b), try RemoteMedia.sha256(a)])
        #expect(rows.last?["title"] as? String == "Beach")
        // Finished uploads leave nothing to resume.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.url("state/feed/uploads").path)) ?? []).isEmpty)
        await serve.stop()
    }

    @Test("killed server mid-upload: exit 74 naming what the server holds; run again, it resumes (bytes sent < 1.1 × the file)")
    func resumesAfterKill() async throws {
        let serve = try await ServeProcess(["--quiet"])
        let port = try #require(serve.base.split(separator: ":").last.map(String.init))
        let folder = try ScratchFolder()
        let clip = try await RemoteMedia.noise(folder.url("noise.mp4").path)
        let size = try RemoteMedia.size(clip)
        let state = folder.url("state").path, journal = folder.url("state/feed/uploads").path
        // Slowed to about 4 s so that the test sees it half-way; no retries, so the cut ends the run.
        let push = try await spawn(["push", clip, "--server", serve.base, "--chunk-size", "256K", "--limit-rate", "\(size / 4)",
                                    "--retries", "0"], environment: ["XDG_STATE_HOME": state], stderr: folder.url("push.err"))
        var uploadID = ""
        let halfway = try await waitUntil(timeout: 30) {
            guard let entry = try? FileManager.default.contentsOfDirectory(atPath: journal).first(where: { $0.hasSuffix(".json") }),
                  let data = FileManager.default.contents(atPath: "\(journal)/\(entry)"),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let id = object["upload_id"] as? String else { return false }
            uploadID = id
            let status = try await serve.curl("/uploads/\(id)")
            return (try? status.json())?["offset"] as? Int64 ?? 0 >= size / 3
        }
        #expect(halfway)
        await serve.crash()
        let status = await push.exitStatus()
        let stderr = String(decoding: (try? Data(contentsOf: folder.url("push.err"))) ?? Data(), as: UTF8.self)
        #expect(status == 74, "\(stderr)")
        #expect(stderr.contains("run again to resume"), "\(stderr)")
        let sentBefore = try #require(stderr.firstMatch(of: /sent (\d+) bytes/).flatMap { Int64($0.1) }, "\(stderr)")

        let again = try await ServeProcess(["--quiet", "--port", port], home: serve.home)
        let resumed = try await FeedProcess.run(["push", clip, "--server", again.base, "--json"], environment: ["XDG_STATE_HOME": state])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let result = try #require((try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [[String: Any]])?.first)
        let from = try #require(result["resumed_from"] as? Int64), sent = try #require(result["sent"] as? Int64)
        #expect(result["upload_id"] as? String == uploadID && from >= size / 3 && sent == size - from, "\(result)")
        #expect(Double(sentBefore + sent) < 1.1 * Double(size), "sent \(sentBefore) then \(sent) of \(size)")
        #expect(try await again.home.rows().first?["sha256"] as? String == (try RemoteMedia.sha256(clip)))
        await again.stop()
    }

    @Test("bad input: no server 64, a missing file 66 before anything is sent, a refused connection 74, a file that is not media 65")
    func failures() async throws {
        let folder = try ScratchFolder()
        let clip = try await RemoteMedia.clip(folder.url("a.mp4").path, pattern: "testsrc", tone: 440)
        let env = ["XDG_STATE_HOME": folder.url("state").path, "FEED_SERVER": ""]
        let noServer = try await FeedProcess.run(["push", clip], environment: env)
        #expect(noServer.status == 64 && noServer.stderr.contains("no server: give --server URL (or set FEED_SERVER)"), "\(noServer.stderr)")
        let badURL = try await FeedProcess.run(["push", clip, "--server", "ftp://example.com"], environment: env)
        #expect(badURL.status == 64, "\(badURL.stderr)")

        let serve = try await ServeProcess(["--quiet"])
        let missing = try await FeedProcess.run(["push", clip, folder.url("gone.mp4").path, "--server", serve.base], environment: env)
        #expect(missing.status == 66 && missing.stderr.contains("gone.mp4: no such file") && missing.stdout.isEmpty, "\(missing.stderr)")
        #expect(try await serve.home.rows().isEmpty)
        let text = folder.url("notes.mp4").path
        try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: text))
        let notMedia = try await FeedProcess.run(["push", text, "--server", serve.base], environment: env)
        #expect(notMedia.status == 65 && notMedia.stderr.contains("notes.mp4"), "\(notMedia.stderr)")
        // Refused for what it holds: nothing to resume, so no hint to run again and no journal entry.
        #expect(!notMedia.stderr.contains("run again"), "\(notMedia.stderr)")
        let journal = folder.url("state").appendingPathComponent("feed/uploads").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? []).allSatisfy { $0.hasPrefix(".") },
                "\((try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? [])")
        let base = serve.base
        await serve.stop()
        let refused = try await FeedProcess.run(["push", clip, "--server", base, "--retries", "0"], environment: env)
        #expect(refused.status == 74 && refused.stderr.contains(base) && refused.stderr.contains("connection refused (nothing listens"),
                "\(refused.stderr)")
    }

    /// Starts `feed arguments…` with stderr to a file; the caller awaits its exit.
    func spawn(_ arguments: [String], environment: [String: String], stderr: URL) async throws -> ChildProcess {
        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        return try await ChildProcess.start(process)
    }
}
