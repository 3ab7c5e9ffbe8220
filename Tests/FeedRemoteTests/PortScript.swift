import FeedTestSupport
import Foundation

/// A Python server of `Scripts/` on a free loopback port: started with its arguments, and found
/// by the `PORT n` line it prints first. It holds no permit of ``ProcessLimiter``: it lives for
/// the whole test. Stopped with SIGKILL (children inherit the test process's ignored SIGTERM)
/// when dropped; Foundation reaps it, nothing waits.
final class PortScript {
    let child: ChildProcess
    /// `http://127.0.0.1:PORT`.
    let base: String
    /// Where the server's stdout goes.
    private let scratch: ScratchFolder

    /// Starts `Scripts/<name>` with `arguments` and waits (10 s at most) for its port.
    init(_ name: String, _ arguments: [String]) async throws {
        scratch = try ScratchFolder()
        let output = scratch.url("stdout")
        try Data().write(to: output)
        let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedRemoteTests/Scripts/\(name)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path] + arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        let child = try ChildProcess(process)
        self.child = child
        func text() -> String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }
        try await waitUntil(timeout: 10) { text().contains("\n") || child.hasExited }
        let line = text().trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            child.signal(SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(name) said: \(line)"])
        }
        base = "http://127.0.0.1:\(port)"
    }

    /// SIGKILL.
    func stop() { child.signal(SIGKILL) }

    deinit { stop() }
}
