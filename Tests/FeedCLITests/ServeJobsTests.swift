import FeedTestSupport
import Foundation
import Testing

/// Stack jobs over HTTP on a real `feed serve`: queued, run, followed, cancelled, resumed after a crash.
@Suite("feed serve: stack jobs")
struct ServeJobsTests {
    /// A home whose roll holds two recordings (1: front, 2: back) of `frames` frames.
    static func home(frames: Int = 20, size: Int = 64) async throws -> RollHome {
        let home = try RollHome()
        let front = try TestMedia.seededClip(home.folder.path("front.mp4"), seed: 1, width: size, height: size * 3 / 2, frames: frames, fps: 10)
        let back = try TestMedia.seededClip(home.folder.path("back.mp4"), seed: 2, width: size, height: size * 3 / 2, frames: frames, fps: 10)
        #expect(try await home.run(["roll", "add", front, back]).status == 0)
        return home
    }

    /// Polls `GET /jobs/ID` until `done(state)` or 60 s; the last body.
    static func wait(_ server: ServeProcess, job: Int, timeout: Double = 60, until done: (String) -> Bool) async throws -> [String: Any] {
        var body: [String: Any] = [:]
        try await waitUntil(timeout: timeout, every: 0.1) {
            body = try await server.curl("/jobs/\(job)").json()
            return done(body["state"] as? String ?? "")
        }
        return body
    }

    @Test("a queued job runs; its events end with done; the result plays from /media/roll/{id} and keeps its sources")
    func runsToDone() async throws {
        let home = try await Self.home()
        let server = try await ServeProcess(["--quiet"], home: home)

        let created = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":1},"back":{"recording":2},"options":{"layout":"hstack"},"title":"both"}"#])
        #expect(created.status == 202 && created.headers["location"] == "/jobs/1")
        #expect(try created.json()["state"] as? String == "queued")
        let events = try await server.curl("/jobs/1/events", ["-N"])
        #expect(events.text.hasPrefix("event: progress") || events.text.hasPrefix("event: done"), "\(events.text)")
        #expect(events.text.contains("event: done\ndata: {\"id\":1,"), "\(events.text)")
        let job = try await server.curl("/jobs/1").json()
        let recording = try #require(job["recording_id"] as? Int)
        #expect(job["state"] as? String == "done" && job["progress"] as? Double == 1)

        let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                                             server.base + "/media/roll/\(recording)"])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "128,96", "\(probe.stdout) \(probe.stderr)")
        let shown = try await server.curl("/roll/\(recording)").json()
        #expect(shown["title"] as? String == "both")
        #expect((shown["sources"] as? [String])?.count == 2)
        await server.stop()
        #expect(try await home.run(["roll", "verify"]).status == 0)
        #expect(RollFiles.hidden(home, ".jobs").isEmpty)
    }

    @Test("a server whose media went away: its stack fails here but goes back to the queue uncounted, the runner stops claiming, /healthz is 503 and /metrics says so")
    func ownFaultStopsClaiming() async throws {
        let home = try await Self.home()
        let server = try await ServeProcess(["--quiet"], home: home)
        let away = home.folder.url("away")
        try FileManager.default.moveItem(at: home.recordings, to: away)
        let created = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":1},"back":{"recording":2}}"#])
        #expect(created.status == 202)
        var health = try await server.curl("/healthz")
        try await waitUntil(timeout: 60, every: 0.1) {
            health = try await server.curl("/healthz")
            return health.status == 503
        }
        #expect(health.status == 503 && health.problem?.kind == "unavailable"
                && health.problem?.detail.contains("the job runner stopped claiming jobs") == true, "\(health.text)")
        let metrics = try await server.curl("/metrics").text
        #expect(metrics.contains("\nfeed_runner_claiming 0\n"), "\(metrics.prefix(2000))")
        let job = try await server.curl("/jobs/1").json()
        #expect(job["state"] as? String == "queued" && job["attempts"] as? Int == 0, "\(job)")
        await server.stop()
    }

    @Test("a finished tus upload is a job source: {\"upload\": ID}")
    func uploadAsSource() async throws {
        let home = try await Self.home(frames: 10)
        let clip = try TestMedia.seededClip(home.folder.path("up.mp4"), seed: 9, width: 64, height: 96, frames: 10, fps: 10)
        let size = try Data(contentsOf: URL(fileURLWithPath: clip)).count
        let server = try await ServeProcess(["--quiet"], home: home)

        let created = try await server.curl("/uploads", ["-X", "POST", "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Length: \(size)",
                                                          "-H", "Upload-Metadata: filename dXAubXA0"])
        let location = try #require(created.headers["location"], "\(created.status) \(created.text)")
        let id = String(location.split(separator: "/").last ?? "")
        let patched = try await ServeProcess.curl(location.hasPrefix("http") ? location : server.base + location,
                                                  ["-X", "PATCH", "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Offset: 0",
                                             "-H", "Content-Type: application/offset+octet-stream", "--data-binary", "@\(clip)"])
        #expect(patched.status == 204, "\(patched.text)")
        let job = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"upload":"\#(id)"},"back":{"recording":2}}"#])
        #expect(job.status == 202, "\(job.text)")
        #expect(try await Self.wait(server, job: 1) { $0 == "done" || $0 == "failed" }["state"] as? String == "done")
        let unknown = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"upload":"0123456789abcdef0123456789abcdef"},"back":{"recording":2}}"#])
        #expect(unknown.status == 404, "\(unknown.text)")
        await server.stop()
    }

    @Test("bad requests: unknown recording 404, bad option 422 naming it, bad JSON 400, unknown job 404, cancelling a done job 409; feed jobs add refuses each with the same message")
    func badRequests() async throws {
        let home = try await Self.home(frames: 5)
        let server = try await ServeProcess(["--quiet"], home: home)

        // Each body, its HTTP status and the CLI's exit status for the same request.
        let refused: [(body: String, status: Int, exit: Int32)] = [
            (#"{"front":{"recording":1},"back":{"recording":9}}"#, 404, 65),
            (#"{"front":{"recording":1},"back":{"recording":2},"options":{"crf":99}}"#, 422, 65),
            (#"{"front":{"recording":1},"back":{"recording":2},"options":{"offset":0.5,"sync":"audio"}}"#, 422, 65),
            (#"{"front":{"recording":1},"back":{"recording":2},"options":{"layout":"diagonal"}}"#, 422, 65),
            ("{", 400, 64),
            (#"{"front":{"recording":1}}"#, 400, 64),
        ]
        for (body, status, exit) in refused {
            let answer = try await server.curl("/jobs/stack", ["-X", "POST", "-d", body])
            let cli = try await home.run(["jobs", "add", "stack", body])
            let message = try #require(answer.problem?.detail, "\(answer.text)")
            #expect(answer.status == status, "\(body): \(answer.text)")
            #expect(cli.status == exit && cli.stderr == "feed: \(message)\n", "\(body): the CLI said \(cli.stderr), the server \(message)")
            #expect(!message.contains("Cannot initialize") && !message.contains("DecodingError"), "no Swift internals: \(message)")
        }
        #expect(try await home.run(["jobs", "--json"]).objects().isEmpty, "nothing was queued")
        #expect(try await server.curl("/jobs/77").status == 404)
        #expect(try await server.curl("/jobs/..%2F1").status == 404)
        _ = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":1},"back":{"recording":2}}"#])
        _ = try await Self.wait(server, job: 1) { $0 == "done" }
        #expect(try await server.curl("/jobs/1", ["-X", "DELETE"]).status == 409)
        await server.stop()
    }

    @Test("DELETE cancels a running job: state cancelled, no output, no row")
    func cancel() async throws {
        let home = try await Self.home(frames: 400, size: 320)
        let server = try await ServeProcess(["--quiet"], home: home)

        _ = try await server.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":1},"back":{"recording":2},"options":{"preset":"veryslow"}}"#])
        let cancelled = try await promptly {
            _ = try await Self.wait(server, job: 1) { $0 != "queued" }
            return try await server.curl("/jobs/1", ["-X", "DELETE"])
        }

        let state = try cancelled.json()["state"] as? String
        #expect(cancelled.status == 200 && state == "cancelled", Comment(rawValue: cancelled.text))
        #expect(try await server.curl("/roll").json()["recordings"].map { ($0 as? [Any])?.count } == 2)
        #expect(RollFiles.files(home, ".jobs").isEmpty)
        await server.stop()
        #expect(try await home.run(["roll", "verify"]).status == 0)
    }

    @Test("a job running when the server is killed runs again after a restart")
    func survivesACrash() async throws {
        // 12 s of 320x480 at veryslow: seconds of work, long enough to be caught running and
        // killed mid-run; the restart then runs all of it again.
        let home = try await Self.home(frames: 120, size: 320)
        let first = try await ServeProcess(["--quiet"], home: home)
        _ = try await first.curl("/jobs/stack", ["-X", "POST", "-d", #"{"front":{"recording":1},"back":{"recording":2},"options":{"preset":"veryslow"}}"#])
        _ = try await Self.wait(first, job: 1) { $0 == "running" }
        await first.crash()

        let second = try await ServeProcess(["--quiet"], home: home)
        // veryslow, so the job is long enough to be killed mid-run; a loaded machine needs time.
        let job = try await Self.wait(second, job: 1, timeout: 240) { $0 == "done" || $0 == "failed" }

        #expect(job["state"] as? String == "done", "\(job)")
        #expect(job["recording_id"] as? Int == 3)
        await second.stop()
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)")
        // The killed run's partial output was cleared at the restart.
        #expect(RollFiles.hidden(home, ".jobs").isEmpty)
    }
}

/// Names inside a hidden folder of a home's `recordings/`.
enum RollFiles {
    static func hidden(_ home: RollHome, _ name: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: home.recordings.appendingPathComponent(name).path)) ?? []
    }

    /// Files (not folders) anywhere under a hidden folder of a home's `recordings/`.
    static func files(_ home: RollHome, _ name: String) -> [String] {
        let root = home.recordings.appendingPathComponent(name)
        return ((try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }
}
