import FeedTestSupport
import Foundation

/// A throwaway TCP server in Python, for a test that needs one that misbehaves on purpose (says
/// nothing, trickles): `script` binds 127.0.0.1 port 0, writes its port to `sys.argv[1]`, then
/// does what the test needs. Killed by ``stop()``.
struct ScriptedServer {
    let child: ChildProcess
    let port: Int

    /// Starts `script` (with `arguments` after the port file's path) and waits (10 s at most)
    /// for the port it writes.
    init(_ script: String, arguments: [String] = []) async throws {
        let scratch = try ScratchFolder()
        let portFile = scratch.url("port")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, portFile.path] + arguments
        let child = try ChildProcess(process)
        self.child = child
        let read = { (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) } }
        try await waitUntil(timeout: 10) { read() != nil || child.hasExited }
        guard let port = read() else {
            child.signal(SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the scripted server wrote no port"])
        }
        self.port = port
    }

    func stop() { child.signal(SIGKILL) }
}
