import FeedTestSupport
import Foundation
import Testing

/// Workers dying and stalling while they work: the queue still ends every job done exactly once.
@Suite("feed worker: chaos", .enabled(if: TestPostgres.url != nil))
struct WorkerChaosTests {
    @Test("""
        one serve, three workers, 40 stack jobs; a worker SIGKILLed and restarted every 2 s, one \
        SIGSTOPped past its lease and continued: every job done once, recordings == jobs, no orphan \
        files, verify clean, the late completion refused
        """)
    func chaos() async throws {
        let shared = try await SharedCatalog()
        let env = shared.environment
        // 8 s clips: a job takes long enough (about half a second) for the queue to outlast the kills.
        let front = try TestMedia.seededClip(shared.folder.path("front.mp4"), seed: 1, width: 96, height: 144, frames: 80, fps: 10)
        let back = try TestMedia.seededClip(shared.folder.path("back.mp4"), seed: 2, width: 96, height: 144, frames: 80, fps: 10)
        #expect(try await shared.running(["roll", "add", front, back]).status == 0)
        let server = try await ServeProcess(["--quiet", "--jobs", "0"], environment: env)
        for n in 0..<40 {
            let body = #"{"front":{"recording":1},"back":{"recording":2},"title":"job \#(n)","options":{"preset":"medium"}}"#
            #expect(try await server.curl("/jobs/stack", ["-X", "POST", "-d", body]).status == 202)
        }

        let lease = 3.0
        var started = 0
        func worker() throws -> WorkerProcess {
            started += 1
            return try WorkerProcess(["--lease", String(lease), "--poll", "0.2", "--grace", "0"], environment: env,
                                     log: shared.folder.url("worker-\(started).log"))
        }
        var workers = try (0..<3).map { _ in try worker() }
        var everyWorker = workers

        // The one that stalls: stopped while it holds a job (checked after the stop: a job whose
        // completion had already committed does not count), for twice its lease.
        let stalled = workers[2]
        /// The job a worker's log says it is working on (claimed, not yet ended): read from its
        /// stderr, which is quick enough to stop or kill it before a short job ends.
        func working(_ worker: WorkerProcess) -> Int? {
            var open: [Int] = []
            for line in worker.stderr.split(separator: "\n") {
                guard let range = line.range(of: "job "), let colon = line[range.upperBound...].firstIndex(of: ":"),
                      let id = Int(line[range.upperBound..<colon]) else { continue }
                if line.contains(", attempt ") { open.append(id) } else { open.removeAll { $0 == id } }
            }
            return open.last
        }
        func held() async throws -> Int? {
            try await shared.listing().first { $0["state"] as? String == "running" && ($0["worker"] as? String)?.hasSuffix(":\(stalled.pid)") == true }?["id"] as? Int
        }
        // Stops and kills land while a worker holds a job: the watching runs on a thread of its own.
        var heldJob = 0
        try await promptly {
            var stalledJob: Int?
            try await waitUntil(timeout: 90, every: 0.01) {
                guard let job = working(stalled) else { return false }
                kill(stalled.pid, SIGSTOP)
                stalledJob = try await held() == job ? job : nil
                if stalledJob == nil {
                    kill(stalled.pid, SIGCONT)
                    // Let it end that job before looking again.
                    try await waitUntil(timeout: 10, every: 0.01) { working(stalled) != job }
                }
                return stalledJob != nil
            }
            let recent = try await shared.listing().prefix(5)
            heldJob = try #require(stalledJob, "the worker to stall never held a job:\n\(stalled.stderr)\n\(recent)")
            let stalledAt = Date()

            // Meanwhile the other two are killed in turn and restarted, every 2 s.
            var victim = 0
            let deadline = Date().addingTimeInterval(180)
            var continued = false
            while Date() < deadline {
                let states = try await shared.listing().map { $0["state"] as? String ?? "" }
                if continued && states.allSatisfy({ $0 == "done" || $0 == "failed" || $0 == "dead" }) { break }
                if !continued && Date().timeIntervalSince(stalledAt) > 2 * lease {
                    kill(stalled.pid, SIGCONT)
                    continued = true
                }
                if Date().timeIntervalSince(stalledAt) < 20 {
                    // Killed while it holds a job when there is one (up to 3 s), so that a dead
                    // worker's job is taken back.
                    let target = workers[victim]
                    try await waitUntil(timeout: 3, every: 0.01) { working(target) != nil }
                    await target.crash()
                    workers[victim] = try worker()
                    everyWorker.append(workers[victim])
                    victim = 1 - victim
                }
                // The chaos's own pace (a kill every 2 s), not a wait for an outcome.
                try await Task.sleep(for: .seconds(2))
            }
        }
        for worker in workers { await worker.stop() }
        // A last worker takes back what the last killed one left and exits once the queue is empty.
        #expect(try await shared.running(["worker", "--drain", "--quiet"]).status == 0)

        let jobs = try await shared.listing()
        let log = everyWorker.map(\.stderr).joined()
        #expect(jobs.count == 40)
        #expect(jobs.allSatisfy { $0["state"] as? String == "done" }, "\(jobs.filter { $0["state"] as? String != "done" })\n\(log)")
        let made = jobs.compactMap { $0["recording_id"] as? Int }
        #expect(made.count == 40 && Set(made).count == 40, "a job completed twice or not at all")
        let roll = try await shared.running(["roll", "--json", "--limit", "0"]).objects()
        #expect(roll.count == 42, "recordings: \(roll.count), jobs: 40 (+2 sources)")
        #expect(Set(roll.compactMap { $0["id"] as? Int }).subtracting([1, 2]) == Set(made))
        #expect(log.contains("took back"), "no dead worker's job was taken back:\n\(log)")
        #expect(stalled.stderr.contains("job \(heldJob): lease lost"), "the stalled worker:\n\(stalled.stderr)")
        let heldRow = try #require(jobs.first { $0["id"] as? Int == heldJob })
        #expect((heldRow["attempts"] as? Int ?? 0) >= 2)

        let verify = try await shared.running(["roll", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let scratch = shared.media.appendingPathComponent("recordings/.jobs")
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: scratch.path)) ?? []
        #expect(left.isEmpty, "outputs left behind: \(left)")
        let incoming = try FileManager.default.contentsOfDirectory(atPath: shared.media.appendingPathComponent("recordings/.incoming").path)
        #expect(incoming.isEmpty, "\(incoming)")
        await server.stop()
    }
}
