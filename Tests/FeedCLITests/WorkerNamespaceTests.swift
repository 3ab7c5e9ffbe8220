import FeedTestSupport
import Foundation
import Testing

/// `WorkerIdentity` across pid namespaces: a worker in a container that has the machine's host
/// name (host networking) but numbers its processes from 1. Needs root for `unshare --pid`.
@Suite("feed worker in a pid namespace of its own", .enabled(if: TestPostgres.url != nil && getuid() == 0))
struct WorkerNamespaceTests {
    @Test("a worker in its own pid namespace is HOST~pidnsN:1 and leaves a dead machine worker's job and outputs alone; the machine's next worker takes them back at once")
    func containerWorker() async throws {
        // Given a stack job held by a worker of the machine that was killed mid-job.
        let shared = try await SharedCatalog()
        try await shared.queueSlowStack()
        let killed = try WorkerProcess(["--lease", "300"], environment: shared.environment, log: shared.folder.url("killed.log"))
        var held: String?
        // Mid-job: the row says running and the worker has made its outputs folder (a moment
        // after the claim; a kill in between would leave no folder to check for).
        try await waitUntil(timeout: 30, every: 0.1) {
            let job = try await shared.listing().first
            if job?["state"] as? String == "running", let worker = job?["worker"] as? String, worker.hasSuffix(":\(killed.pid)"),
               FileManager.default.fileExists(atPath: shared.media.appendingPathComponent("recordings/.jobs/\(worker)").path) {
                held = worker
            }
            return held != nil
        }
        let dead = try #require(held, "the first worker never ran the job: \(killed.stderr)")
        await killed.crash()
        let outputs = shared.media.appendingPathComponent("recordings/.jobs/\(dead)")
        #expect(FileManager.default.fileExists(atPath: outputs.path), "the killed worker left no outputs folder")

        // When a worker runs in a pid namespace of its own (same host name) and drains a noop.
        #expect(try await shared.running(["jobs", "add", "noop", "{}"]).status == 0)
        let inside = try await Self.unshared(["worker", "--drain", "--poll", "0.1"], environment: shared.environment)
        #expect(inside.status == 0, "\(inside.stderr)")

        // Then it names itself HOST~pidnsN:1, and the dead pid means nothing to it: the job and
        // its outputs stay until the lease ends or a worker of the machine looks.
        let jobs = try await shared.listing()
        let host = String(dead[..<dead.lastIndex(of: ":")!])
        let noop = try #require(jobs.first { $0["kind"] as? String == "noop" })
        let container = try #require(noop["worker"] as? String)
        #expect(noop["state"] as? String == "done")
        #expect(container.wholeMatch(of: /(.+)~pidns[0-9]+:1/)?.1 == Substring(host), "\(container), machine \(host)")
        let stack = try #require(jobs.first { $0["kind"] as? String == "stack" })
        #expect(stack["state"] as? String == "running" && stack["worker"] as? String == dead, "\(stack)\n\(inside.stderr)")
        #expect(FileManager.default.fileExists(atPath: outputs.path), "the container's worker removed \(dead)'s outputs")

        // And a worker of the machine sees that pid is gone and takes the job back at once.
        let next = try WorkerProcess(["--grace", "0"], environment: shared.environment, log: shared.folder.url("next.log"))
        var job = stack
        try await waitUntil(timeout: 30, every: 0.1) {
            job = try #require(try await shared.listing().first { $0["kind"] as? String == "stack" })
            return job["worker"] as? String != dead
        }
        #expect(job["worker"] as? String != dead, "the machine's worker did not take back \(dead)'s job: \(next.stderr)")
        #expect(await next.stop() == 0, "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outputs.path), "\(dead)'s outputs were not removed")
    }

    /// Runs `feed arguments…` as pid 1 of a new pid namespace (`unshare --pid --fork`), with the
    /// catalog's environment; killed with the namespace if unshare is. `--mount-proc` gives it
    /// the /proc of its namespace, as a container has (LeakSanitizer reads its threads there).
    private static func unshared(_ arguments: [String], environment added: [String: String]) async throws -> (status: Int32, stderr: String) {
        let run = try await FeedProcess.run(["--pid", "--fork", "--kill-child", "--mount-proc", FeedProcess.executable.path] + arguments,
                                            environment: added, executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        return (run.status, run.stderr)
    }
}
