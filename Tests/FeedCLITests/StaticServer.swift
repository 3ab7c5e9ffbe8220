import FeedTestSupport
import Foundation

/// `python3 -m http.server` on a free loopback port, serving `folder`; with `log`, its request
/// log (one line per request: `… "GET /path HTTP/1.1" 200 -`) goes to that file. It holds no
/// permit of ``ProcessLimiter``: it lives for the whole test.
final class StaticServer {
    let child: ChildProcess
    let base: String
    /// Where the server's stdout (its "Serving HTTP on …" line) goes.
    private let scratch: ScratchFolder

    /// Starts the server and waits (10 s at most) for the line that names its port.
    init(_ folder: URL, log: URL? = nil) async throws {
        scratch = try ScratchFolder()
        let output = scratch.url("stdout")
        try Data().write(to: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        if let log {
            try Data().write(to: log)
            process.standardError = try FileHandle(forWritingTo: log)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        let child = try ChildProcess(process)
        self.child = child
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        func text() -> String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }
        try await waitUntil(timeout: 10) { text().contains("\n") || child.hasExited }
        let line = text()
        guard let port = line.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first else {
            child.signal(SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "http.server said: \(line)"])
        }
        base = "http://127.0.0.1:\(port)"
    }

    /// SIGKILL (the test process's children inherit its ignored SIGTERM); Foundation reaps it,
    /// nothing waits.
    func stop() {
        child.signal(SIGKILL)
    }
}
