import Foundation
import FeedTestSupport
import Testing
import FeedCore

/// A temporary FEED_HOME plus a folder of clips made with the project's VideoWriter, and
/// ways to run `feed` against that home.
final class RollHome {
    let folder: ScratchFolder
    var home: URL { folder.url.appendingPathComponent("home") }
    var recordings: URL { home.appendingPathComponent("recordings") }
    var environment: [String: String] { ["FEED_HOME": home.path] }

    init() throws { folder = try ScratchFolder() }

    /// Runs `feed arguments…` with FEED_HOME set to this home.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> FeedRun {
        try await FeedProcess.run(arguments, environment: environment.merging(extra) { $1 })
    }

    /// Starts `feed arguments…` (once ``ProcessLimiter`` gives a permit, held until it exits)
    /// without waiting for it; output goes to /dev/null. The test signals it or awaits its exit
    /// (`exitStatus()`).
    func spawn(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ChildProcess {
        let process = Process()
        process.executableURL = FeedProcess.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment.merging(extra) { $1 }) { $1 }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        return try await ChildProcess.start(process)
    }

    /// A seeded clip (see `TestMedia.seededClip`) named `name` in the folder; its path.
    @discardableResult
    func clip(_ name: String, seed: Int, width: Int = 64, height: Int = 48, frames: Int = 10) throws -> String {
        try TestMedia.seededClip(folder.url.appendingPathComponent(name).path, seed: seed, width: width, height: height, frames: frames)
    }

    /// `feed roll --json --limit 0` parsed.
    func rows() async throws -> [[String: Any]] {
        let run = try await run(["roll", "--json", "--limit", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        return try run.objects()
    }

    /// Visible files in recordings/.
    func storedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: recordings.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Entries of a hidden folder of recordings/ (".incoming", ".trash", ".thumbs").
    func hidden(_ name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: recordings.appendingPathComponent(name).path)) ?? []).sorted()
    }
}
