import FeedTestSupport
import Foundation
import Testing

/// What one run of the real `feed` binary produced.
struct FeedRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout split into lines, without the final empty one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// stdout parsed as JSON.
    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }

    /// stdout parsed as a JSON array of objects.
    func objects() throws -> [[String: Any]] {
        try #require(try json() as? [[String: Any]], "stdout is not a JSON array of objects: \(stdout.prefix(200))")
    }
}

/// Runs the built `feed` executable with `Process`, with stdout and stderr captured in files
/// (no pipe can fill up and dead-lock).
enum FeedProcess {
    /// `feed` next to the running test executable (the build products folder), else `.build/debug/feed`.
    static let executable: URL = {
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
        // On macOS the test executable sits inside a .xctest bundle.
        while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
        let beside = folder.appendingPathComponent("feed")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return RepositoryFiles.root.appendingPathComponent(".build/debug/feed")
    }()

    /// Runs `feed arguments…` and waits for it.
    /// - Parameters:
    ///   - stdin: bytes to feed on standard input (else /dev/null).
    ///   - environment: added to the inherited environment, from which FEED_PATH, COLUMNS and
    ///     NO_COLOR are removed so every test starts from the same defaults.
    ///   - currentDirectory: the folder `feed` runs in (else the test's own).
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    currentDirectory: URL? = nil) throws -> FeedRun {
        let scratch = try ScratchFolder()
        let outURL = scratch.url("stdout")
        let errURL = scratch.url("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        var env = ProcessInfo.processInfo.environment
        for name in ["FEED_PATH", "COLUMNS", "NO_COLOR"] { env[name] = nil }
        env.merge(environment) { $1 }
        process.environment = env
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let inURL = scratch.url("stdin")
            try stdin.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return FeedRun(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }
}
