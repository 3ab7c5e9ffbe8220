import FeedTestSupport
import Foundation
import Testing

/// A real `feed worker` with its stderr (one line per job) in a file of the scratch folder.
/// It holds no permit of ``ProcessLimiter``: it lives for the whole test. ``stop(timeout:)``
/// ends it; if a test throws first, `deinit` sends SIGKILL (Foundation reaps it; nothing waits).
final class WorkerProcess: Sendable {
    let child: ChildProcess
    let stderrURL: URL

    /// Starts `feed worker extra…` with `environment` (the catalog, the media) added.
    init(_ extra: [String], environment added: [String: String], log: URL) throws {
        stderrURL = log
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = ["worker"] + extra
        process.environment = Self.environment(adding: added)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        child = try ChildProcess(process)
    }

    /// This process's environment without FEED_PATH, with `added` (a catalog, a media folder).
    static func environment(adding added: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FEED_PATH"] = nil
        environment.merge(added) { $1 }
        return environment
    }

    var pid: Int32 { child.pid }

    /// What the worker wrote on stderr so far.
    var stderr: String { String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self) }

    /// SIGTERM, then the exit status (`timeout` seconds at most, then SIGKILL); waiting for a
    /// worker to finish its job holds no thread.
    @discardableResult
    func stop(timeout: Double = 30) async -> Int32 {
        let status = await child.stop(SIGTERM, timeout: timeout)
        #expect(!stderr.contains("Sanitizer"), "\(stderr)")
        return status
    }

    /// SIGKILL, and waits for the exit.
    func crash() async {
        await child.stop(SIGKILL, timeout: 10)
    }

    deinit { child.signal(SIGKILL) }
}

/// A shared media folder and a PostgreSQL database of its own: the setting of several nodes.
struct SharedCatalog: @unchecked Sendable {
    let folder: ScratchFolder
    let url: String
    var media: URL { folder.url.appendingPathComponent("media") }
    /// `FEED_CATALOG` and `FEED_MEDIA` for every process of the test (and a FEED_HOME no one uses).
    var environment: [String: String] {
        ["FEED_CATALOG": url, "FEED_MEDIA": media.path, "FEED_HOME": folder.url.appendingPathComponent("unused-home").path]
    }

    init() async throws {
        folder = try ScratchFolder()
        url = try await TestPostgres.newDatabase()
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
    }

    /// Runs `feed arguments…` against this catalog (under a permit of ``ProcessLimiter``).
    func running(_ arguments: [String]) async throws -> FeedRun {
        try await FeedProcess.run(arguments, environment: environment)
    }

    /// Every job, newest first, as `feed jobs --json` gives them. It takes no permit of
    /// ``ProcessLimiter``: tests look while a worker works, and a wait in the queue could let
    /// the state they look for (a job running, a lease held) pass.
    func listing() async throws -> [[String: Any]] {
        try await FeedProcess.run(["jobs", "--json", "--limit", "0"], environment: environment, limited: false).objects()
    }

    /// Adds two 2 s 320x480 clips (recordings 1 and 2) and queues a stack of them at x264's
    /// veryslow preset: a job of seconds, long enough to be caught running (polls are 0.1 s
    /// apart) and short enough to be run to the end where a test needs that.
    func queueSlowStack() async throws {
        let front = try TestMedia.seededClip(folder.path("front.mp4"), seed: 1, width: 320, height: 480, frames: 120, fps: 30)
        let back = try TestMedia.seededClip(folder.path("back.mp4"), seed: 2, width: 320, height: 480, frames: 120, fps: 30)
        #expect(try await running(["roll", "add", front, back]).status == 0)
        let slow = #"{"front":{"recording":1},"back":{"recording":2},"options":{"preset":"veryslow"}}"#
        #expect(try await running(["jobs", "add", "stack", slow]).status == 0)
    }
}
