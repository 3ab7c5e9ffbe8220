import FeedTestSupport
import Foundation
import Testing

/// A real `feed worker` with its stderr (one line per job) in a file of the scratch folder.
final class WorkerProcess: @unchecked Sendable {
    let process = Process()
    let stderrURL: URL

    /// Starts `feed worker extra…` with `environment` (the catalog, the media) added.
    init(_ extra: [String], environment added: [String: String], log: URL) throws {
        stderrURL = log
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = FeedProcess.executable
        process.arguments = ["worker"] + extra
        process.environment = Self.environment(adding: added)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
    }

    /// This process's environment without FEED_PATH, with `added` (a catalog, a media folder).
    static func environment(adding added: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FEED_PATH"] = nil
        environment.merge(added) { $1 }
        return environment
    }

    var pid: Int32 { process.processIdentifier }

    /// What the worker wrote on stderr so far.
    var stderr: String { String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self) }

    /// SIGTERM, then the exit status (`timeout` seconds at most, then SIGKILL).
    @discardableResult
    func stop(timeout: Double = 30) -> Int32 {
        if process.isRunning { kill(pid, SIGTERM) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() }
        #expect(!stderr.contains("Sanitizer"), "\(stderr)")
        return process.terminationStatus
    }

    /// ``stop(timeout:)`` on a thread of its own: waiting for a worker to finish a job must not
    /// hold one of the few threads every async test shares.
    @discardableResult
    func stopped(timeout: Double = 30) async -> Int32 {
        await offPool { self.stop(timeout: timeout) }
    }

    /// SIGKILL, and waits for the exit.
    func crash() {
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    deinit { if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() } }
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

    /// Runs `feed arguments…` against this catalog.
    func run(_ arguments: [String]) throws -> FeedRun {
        try FeedProcess.run(arguments, environment: environment)
    }

    /// Every job, newest first, as `feed jobs --json` gives them.
    func jobs() throws -> [[String: Any]] {
        try run(["jobs", "--json", "--limit", "0"]).objects()
    }

    /// ``run(_:)`` on a thread of its own (see ``offPool(_:)``).
    func running(_ arguments: [String]) async throws -> FeedRun {
        try await offPool { try self.run(arguments) }
    }

    /// ``jobs()`` on a thread of its own.
    func listing() async throws -> [[String: Any]] {
        try await running(["jobs", "--json", "--limit", "0"]).objects()
    }

    /// Adds two 5 s 320x480 clips (recordings 1 and 2) and queues a stack of them at x264's
    /// veryslow preset: a job that runs long enough to be caught running.
    func queueSlowStack() async throws {
        let front = try TestMedia.seededClip(folder.path("front.mp4"), seed: 1, width: 320, height: 480, frames: 150, fps: 30)
        let back = try TestMedia.seededClip(folder.path("back.mp4"), seed: 2, width: 320, height: 480, frames: 150, fps: 30)
        #expect(try await running(["roll", "add", front, back]).status == 0)
        let slow = #"{"front":{"recording":1},"back":{"recording":2},"options":{"preset":"veryslow"}}"#
        #expect(try await running(["jobs", "add", "stack", slow]).status == 0)
    }
}

/// Runs blocking work (a child process, a wait) on a new thread and resumes with its result, so
/// async tests do not tie up the cooperative pool's threads (two on this machine) that the
/// other suites' tasks need.
func offPool<T>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// ``offPool(_:)`` for work that cannot fail.
func offPool<T>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
