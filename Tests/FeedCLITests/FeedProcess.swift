import FeedCore
import FeedTestSupport
import Foundation
import Testing

/// What one run of the real `feed` binary produced.
struct FeedRun {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Seconds from the start to the exit (no wait for a permit counted).
    var seconds: Double = 0

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
/// (no pipe can fill up and dead-lock). Runs are async: the wait for the exit holds no thread of
/// Swift's cooperative pool, and each run takes a permit of ``ProcessLimiter/shared`` (at most a
/// few short-lived children at once; see there).
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

    /// Runs `feed arguments…` and waits for it (suspended, not blocking a thread).
    /// - Parameters:
    ///   - stdin: bytes to feed on standard input (else /dev/null).
    ///   - environment: added to the inherited environment, from which FEED_PATH, COLUMNS,
    ///     NO_COLOR, FEED_SERVER and FEED_TOKEN are removed and in which FEED_HOME and
    ///     XDG_STATE_HOME are empty folders of this run's, so every test starts from the same
    ///     defaults.
    ///   - currentDirectory: the folder `feed` runs in (else the test's own).
    ///   - executable: the program to run (else `feed`).
    ///   - limited: whether the run waits for and holds a permit of ``ProcessLimiter/shared``;
    ///     `false` only for quick looks at a long-lived server or worker mid-job, where a wait
    ///     in the queue could let the state they look for pass.
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    currentDirectory: URL? = nil, executable: URL = FeedProcess.executable,
                    limited: Bool = true) async throws -> FeedRun {
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
        for name in ["FEED_PATH", "COLUMNS", "NO_COLOR", "FEED_SERVER", "FEED_TOKEN"] { env[name] = nil }
        // Nothing of the caller's: a run that names no home gets an empty one of its own (the
        // roll, the clip cache and `feed push`'s journal follow it), never the user's or an
        // exported FEED_HOME.
        env["FEED_HOME"] = scratch.url("home").path
        env["XDG_STATE_HOME"] = scratch.url("state").path
        env.merge(environment) { $1 }
        process.environment = env
        // The files are opened once the run may start (see ChildProcess.run(limited:_:)): the
        // hundreds of runs waiting for a permit hold no descriptors. Closed once it ended.
        let handles = Locked<[FileHandle]>([])
        defer { for handle in handles.withLock({ $0 }) { try? handle.close() } }
        let child = try await ChildProcess.run(limited: limited) {
            let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
            handles.withLock { $0 += [out, err] }
            process.standardOutput = out
            process.standardError = err
            if let stdin {
                let inURL = scratch.url("stdin")
                try stdin.write(to: inURL)
                let input = try FileHandle(forReadingFrom: inURL)
                handles.withLock { $0.append(input) }
                process.standardInput = input
            } else {
                process.standardInput = FileHandle.nullDevice
            }
            return process
        }
        return FeedRun(
            status: child.process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
            seconds: child.seconds ?? 0
        )
    }

    /// Runs `feed arguments…` with stdout (and stderr) on a pseudo-terminal `columns` wide, as
    /// in an interactive shell: util-linux `script` makes the terminal, `stty` sets its size.
    /// The run's stdout holds both streams as the terminal showed them, "\r\n" made "\n";
    /// `TERM=dumb` keeps colours out.
    static func runInTerminal(_ arguments: [String], columns: Int, environment: [String: String] = [:],
                              currentDirectory: URL? = nil) async throws -> FeedRun {
        let quoted = ([executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = "stty cols \(columns) rows 50 && exec " + quoted.joined(separator: " ")
        var run = try await FeedProcess.run(["-qefc", command, "/dev/null"], environment: ["TERM": "dumb"].merging(environment) { $1 },
                                            currentDirectory: currentDirectory, executable: URL(fileURLWithPath: "/usr/bin/script"))
        run.stdout = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        return run
    }
}
