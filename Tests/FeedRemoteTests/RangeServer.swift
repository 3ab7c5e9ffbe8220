import FeedTestSupport
import Foundation

/// `Scripts/range_server.py` on a free loopback port: serves a folder with byte ranges and
/// validators, logs every request, and (with `cut`) breaks off, or (with `stall`) stops sending
/// in the middle of, the first GET of each file. It holds no permit of ``ProcessLimiter``: it
/// lives for the whole test.
final class RangeServer {
    let child: ChildProcess
    let base: String
    let log: URL
    /// Where the server's stdout (its "PORT n" line) goes.
    private let scratch: ScratchFolder

    /// Starts the server and waits (10 s at most) for the line that names its port.
    init(_ folder: URL, log: URL, cut: Int? = nil, stall: Int? = nil) async throws {
        self.log = log
        try Data().write(to: log)
        scratch = try ScratchFolder()
        let output = scratch.url("stdout")
        try Data().write(to: output)
        let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedRemoteTests/Scripts/range_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path, folder.path, log.path] + (cut.map { ["--cut", String($0)] } ?? [])
            + (stall.map { ["--stall", String($0)] } ?? [])
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        let child = try ChildProcess(process)
        self.child = child
        func text() -> String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }
        try await waitUntil(timeout: 10) { text().contains("\n") || child.hasExited }
        let line = text().trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            child.signal(SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "range_server.py said: \(line)"])
        }
        base = "http://127.0.0.1:\(port)"
    }

    /// The URL of `name` in the folder.
    func url(_ name: String) -> URL { URL(string: base + "/" + name)! }

    /// The logged requests: "METHOD PATH RANGE STATUS" each.
    func requests() -> [String] {
        (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// SIGKILL (children inherit the test process's ignored SIGTERM); Foundation reaps it,
    /// nothing waits.
    func stop() {
        child.signal(SIGKILL)
    }

    deinit { stop() }
}
