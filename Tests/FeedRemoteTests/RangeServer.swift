import FeedTestSupport
import Foundation

/// `Scripts/range_server.py` on a free loopback port: serves a folder with byte ranges and
/// validators, logs every request, and (with `cut`) breaks off, or (with `stall`) stops sending
/// in the middle of, the first GET of each file.
final class RangeServer {
    let process = Process()
    let base: String
    let log: URL

    init(_ folder: URL, log: URL, cut: Int? = nil, stall: Int? = nil) throws {
        self.log = log
        try Data().write(to: log)
        let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedRemoteTests/Scripts/range_server.py")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path, folder.path, log.path] + (cut.map { ["--cut", String($0)] } ?? [])
            + (stall.map { ["--stall", String($0)] } ?? [])
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "range_server.py said: \(text)"])
        }
        base = "http://127.0.0.1:\(port)"
    }

    /// The URL of `name` in the folder.
    func url(_ name: String) -> URL { URL(string: base + "/" + name)! }

    /// The logged requests: "METHOD PATH RANGE STATUS" each.
    func requests() -> [String] {
        (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// SIGKILL: children inherit the test process's ignored SIGTERM.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
