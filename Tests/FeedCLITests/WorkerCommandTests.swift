import FeedTestSupport
import Foundation
import Testing

/// `feed worker` and `feed jobs` on PostgreSQL: servers that only queue, workers that run,
/// recordings any node serves. (The chaos test is WorkerChaosTests.)
@Suite("feed worker and feed jobs", .enabled(if: TestPostgres.url != nil))
struct WorkerCommandTests {
    @Test("a new user's setting: an upload resumed across two servers, serve --jobs 0 queues, two workers stack it with a recording, another server serves the result")
    func serveAndWorkers() async throws {
        let shared = try await SharedCatalog()
        let env = shared.environment
        let front = try TestMedia.seededClip(shared.folder.path("front.mp4"), seed: 1, width: 64, height: 96, frames: 20, fps: 10)
        let back = try TestMedia.seededClip(shared.folder.path("back.mp4"), seed: 2, width: 64, height: 96, frames: 20, fps: 10)
        #expect(try await shared.running(["roll", "add", front]).status == 0)

        let queuing = try await ServeProcess(["--jobs", "0"], environment: env)
        let serving = try await ServeProcess(["--quiet", "--jobs", "0"], environment: env)
        // The back clip arrives as a tus upload: half to one server, the rest (resumed after a
        // HEAD, as a client behind a load balancer would) to the other.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: back)), half = bytes.count / 2
        let upload = try await ServeUploadTests.create(queuing, length: bytes.count, filename: "back.mp4")
        #expect(try await ServeUploadTests.patch(queuing, upload, bytes.prefix(half), offset: 0).status == 204)
        let head = try await serving.curl(upload, ["-I", "-H", "Tus-Resumable: 1.0.0"])
        #expect(head.status == 200 && head.headers["upload-offset"] == String(half), "\(head.headers)")
        #expect(try await ServeUploadTests.patch(serving, upload, bytes.dropFirst(half), offset: half).status == 204)
        #expect(try await ServeUploadTests.finished(queuing, upload)["state"] as? String == "done")
        let uploadID = String(upload.dropFirst("/uploads/".count))

        let body = #"{"front":{"recording":1},"back":{"upload":"\#(uploadID)"},"title":"pair"}"#
        for _ in 0..<3 { #expect(try await queuing.curl("/jobs/stack", ["-X", "POST", "-d", body]).status == 202) }
        // serve --jobs 0 only queues: nothing runs before the workers start, and in the end each
        // job was claimed once, by one of them (no fixed wait for a run that must not happen).
        #expect(try await shared.listing().allSatisfy { $0["state"] as? String == "queued" }, "serve --jobs 0 ran a job")

        let workers = try (0..<2).map { n in
            try WorkerProcess(["--concurrency", "2"], environment: env, log: shared.folder.url("worker-\(n).log"))
        }
        var jobs: [[String: Any]] = []
        try await waitUntil(timeout: 90, every: 0.3) {
            jobs = try await shared.listing()
            return jobs.allSatisfy { $0["state"] as? String == "done" }
        }
        for worker in workers { #expect(await worker.stop() == 0, "\(worker.stderr)") }
        #expect(jobs.count == 3 && jobs.allSatisfy { $0["state"] as? String == "done" }, "\(jobs)")
        let ours = workers.map { ":\($0.pid)" }
        #expect(jobs.allSatisfy { job in
            job["attempts"] as? Int == 1 && ours.contains { (job["worker"] as? String)?.hasSuffix($0) == true }
        }, "serve --jobs 0 ran a job: \(jobs)")
        let made = jobs.compactMap { $0["recording_id"] as? Int }
        #expect(Set(made).count == 3)
        for id in made {
            let media = try await serving.curl("/media/roll/\(id)", ["-o", "/dev/null"])
            #expect(media.status == 200, "recording \(id)")
        }
        let roll = try await serving.curl("/roll?limit=10").json()["recordings"] as? [[String: Any]]
        #expect(roll?.count == 5 && roll?.first?["title"] as? String == "pair")
        #expect(workers.map(\.stderr).joined().contains("done → recording"))
        #expect(workers.allSatisfy { !$0.stderr.contains("lease lost") })
        let verify = try await shared.running(["roll", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.media.appendingPathComponent("recordings/.jobs").path).isEmpty)
        await serving.stop()
        await queuing.stop()
    }

    @Test("SIGTERM: with --grace the running job finishes first; without, it is stopped and released at once, uncounted")
    func gracefulStop() async throws {
        let shared = try await SharedCatalog()
        try await shared.queueSlowStack()

        // The worker's own line when it claims the job: read from its log within milliseconds,
        // while `feed jobs` (a process per look) could see the job only after a loaded machine
        // had let it finish. Then the catalog's row agrees.
        func running(_ worker: WorkerProcess) async throws -> Bool {
            guard try await waitUntil(timeout: 60, every: 0.02, { worker.stderr.contains(": stack, attempt ") }) else { return false }
            return try await shared.listing().contains { ($0["worker"] as? String)?.hasSuffix(":\(worker.pid)") == true }
        }

        // No grace: stopped at once, back in the queue with its attempt uncounted, nothing left.
        let hasty = try WorkerProcess(["--grace", "0"], environment: shared.environment, log: shared.folder.url("hasty.log"))
        #expect(try await running(hasty))
        let stopAsked = ContinuousClock.now
        #expect(await hasty.stop() == 0, "\(hasty.stderr)")
        #expect(try #require(hasty.child.exited) - stopAsked < .seconds(10), "the worker's own exit, not when the test saw it")
        let released = try #require(try await shared.listing().first)
        #expect(released["state"] as? String == "queued" && released["attempts"] as? Int == 0, "\(released)")
        #expect(hasty.stderr.contains("job 1: released to the queue"), "\(hasty.stderr)")
        // Each step a line, the catalog's after the runner's (its scope ends after the group).
        let steps = ["job 1: released to the queue", "job runner stopped", "catalog closed (postgres://", ": stopped"]
            .map { step in hasty.stderr.range(of: step)?.lowerBound }
        #expect(!steps.contains(nil) && steps.compactMap { $0 } == steps.compactMap { $0 }.sorted(), "\(hasty.stderr)")
        let scratch = shared.media.appendingPathComponent("recordings/.jobs")
        #expect(((try? FileManager.default.subpathsOfDirectory(atPath: scratch.path)) ?? []).isEmpty)

        // With grace: the job finishes, then the worker exits.
        let patient = try WorkerProcess(["--grace", "120"], environment: shared.environment, log: shared.folder.url("patient.log"))
        #expect(try await running(patient))
        #expect(await patient.stop(timeout: 120) == 0, "\(patient.stderr)")
        let finished = try #require(try await shared.listing().first)
        #expect(finished["state"] as? String == "done" && finished["recording_id"] as? Int == 3, "\(finished)\n\(patient.stderr)")
        #expect(try await shared.running(["roll", "verify"]).status == 0)
    }

    @Test("feed jobs: add (checked now), list by state, cancel, retry; a failed job names why; unknown ids and final states exit 65")
    func jobsCommands() async throws {
        let shared = try await SharedCatalog()
        let clip = try TestMedia.seededClip(shared.folder.path("one.mp4"), seed: 3, width: 64, height: 48, frames: 10, fps: 10)
        #expect(try await shared.running(["roll", "add", clip]).status == 0)
        let noop = try await shared.running(["jobs", "add", "noop"])
        #expect(noop.status == 0 && noop.stdout.contains(#""state":"queued""#))
        // A recording that is not there is refused when queued, not found failing by a worker.
        let missing = try await shared.running(["jobs", "add", "thumb", #"{"recording": 41}"#])
        #expect(missing.status == 65 && missing.stderr == "feed: roll: no recording with id 41\n", "\(missing.stderr)")
        // So is a frame past the end, as `feed roll thumb --at` refuses it.
        let late = try await shared.running(["jobs", "add", "thumb", #"{"recording": 1, "at": 1000}"#])
        #expect(late.status == 65 && late.stderr.contains("recording 1 is 1.000 s long: cannot take a frame at 1000.0 s"), "\(late.stderr)")
        // A recording removed after its job was queued can only be found out by the worker: it fails the job.
        let thumb = try await shared.running(["jobs", "add", "thumb", #"{"recording": 1, "at": 0.5}"#, "--max-attempts", "2"])
        #expect(thumb.status == 0 && thumb.stdout.contains(#""max_attempts":2"#), "\(thumb.stderr)")
        #expect(try await shared.running(["roll", "rm", "1"]).status == 0)
        #expect(try await shared.running(["jobs", "add", "noop", "not json"]).status == 64)
        #expect(try await shared.running(["jobs", "add", "paint"]).status == 64)

        #expect(try await shared.running(["jobs", "cancel", "1"]).status == 0)
        #expect(try await shared.running(["jobs", "cancel", "1"]).status == 65)
        #expect(try await shared.running(["jobs", "cancel", "99"]).status == 65)
        let worker = try await shared.running(["worker", "--drain", "--quiet"])
        #expect(worker.status == 0, "\(worker.stderr)")
        let failed = try await shared.running(["jobs", "--state", "failed", "--json"]).objects()
        #expect(failed.count == 1 && (failed.first?["error"] as? String)?.contains("no recording with id 1") == true, "\(failed)")
        #expect(try await shared.running(["jobs", "--state", "cancelled", "--json"]).objects().map { $0["id"] as? Int } == [1])

        let retried = try await shared.running(["jobs", "retry", "1"])
        #expect(retried.status == 0 && retried.stdout.contains(#""state":"queued""#))
        #expect(try await shared.running(["jobs", "retry", "1"]).status == 65)
        #expect(try await shared.running(["worker", "--drain", "--quiet"]).status == 0)
        let table = try await shared.running(["jobs"])
        #expect(table.lines.first?.hasPrefix("ID  STATE") == true && table.lines.count == 3, "\(table.stdout)")
        #expect(table.lines.count == 3 && table.lines[2].contains("done") && table.lines[2].contains("noop"), "\(table.stdout)")
    }

    @Test("with $FEED_CATALOG, feed like and feed list --liked share PostgreSQL's marks")
    func marksInPostgres() async throws {
        let shared = try await SharedCatalog()
        #expect(try await shared.running(["like", "1450"]).stdout == "liked 1450\n")
        let liked = try await shared.running(["list", "--liked", "--json"])
        let ids = try liked.objects().compactMap { $0["id"] as? Int }
        #expect(liked.status == 0 && ids == [1450], "\(liked.stdout)\(liked.stderr)")
        let home = shared.folder.url.appendingPathComponent("unused-home/roll.sqlite")
        #expect(!FileManager.default.fileExists(atPath: home.path), "no SQLite roll was made")
    }

    @Test("bad catalogs: a non-postgres URL and --media without a catalog are usage errors; an unreachable server is 74 naming it")
    func badCatalogs() async throws {
        let home = try RollHome()
        #expect(try await home.run(["jobs", "--catalog", "mysql://x/y"]).status == 64)
        #expect(try await home.run(["roll", "--media", "/tmp"]).status == 64)
        let gone = try await home.run(["worker", "--catalog", "postgres://feed:pw@/feed?host=\(home.folder.url.path)"])
        #expect(gone.status == 74)
        #expect(gone.stderr.contains("postgres://feed@/feed?host=") && !gone.stderr.contains(":pw@"), "\(gone.stderr)")
        // It names the socket it looked for and what to check, in words.
        #expect(gone.stderr.contains("no server socket \(home.folder.url.path)/.s.PGSQL.5432 (is PostgreSQL running"), "\(gone.stderr)")
        #expect(!gone.stderr.contains("errno") && !gone.stderr.contains("descriptor"), "\(gone.stderr)")
        let refused = try await home.run(["jobs", "--catalog", "postgres://feed@127.0.0.1:9/feed"])
        #expect(refused.status == 74 && refused.stderr.contains("connection refused at 127.0.0.1:9 (is PostgreSQL running"), "\(refused.stderr)")
    }

    @Test("a worker removes the .jobs/ folders of workers gone for an hour (another machine's, a restarted container's), a half-written output left in one too; a folder whose file or itself was touched lately stays")
    func goneWorkerFolders() async throws {
        // Given .jobs/ folders that ended workers of other machines and containers left.
        let shared = try await SharedCatalog()
        let jobs = shared.media.appendingPathComponent("recordings/.jobs")
        let fm = FileManager.default
        func folder(_ name: String, holdingAFile fileAge: TimeInterval? = nil, age: TimeInterval = 7200) throws -> URL {
            let url = jobs.appendingPathComponent(name)
            try fm.createDirectory(at: url, withIntermediateDirectories: true)
            if let fileAge {
                let file = url.appendingPathComponent("7-0a1b2c3d.mp4").path
                #expect(fm.createFile(atPath: file, contents: Data([1])))
                try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-fileAge)], ofItemAtPath: file)
            }
            try fm.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
            return url
        }
        let otherMachine = try folder("elsewhere:4242")
        let oldContainer = try folder("vm~pidns4026532999:1")
        let deadWriter = try folder("elsewhere:4545", holdingAFile: 7200)
        let holding = try folder("elsewhere:4343", holdingAFile: 30)
        let lately = try folder("elsewhere:4444", age: 60)

        // When a worker drains a queue of one job.
        #expect(try await shared.running(["jobs", "add", "noop", "{}"]).status == 0)
        let worker = try await shared.running(["worker", "--drain", "--poll", "0.1"])
        #expect(worker.status == 0, "\(worker.stderr)")

        // Then the old ones are gone, the one with a dead process's output too.
        #expect(!fm.fileExists(atPath: otherMachine.path) && !fm.fileExists(atPath: oldContainer.path), "\(worker.stderr)")
        #expect(!fm.fileExists(atPath: deadWriter.path), "\(worker.stderr)")
        #expect(worker.stderr.contains("removed elsewhere:4545's outputs folder and the 1 file(s) its process left"), "\(worker.stderr)")
        #expect(fm.fileExists(atPath: holding.appendingPathComponent("7-0a1b2c3d.mp4").path))
        #expect(fm.fileExists(atPath: lately.path))
        #expect(worker.stderr.contains("removed elsewhere:4242's empty outputs folder"), "\(worker.stderr)")
    }
}
