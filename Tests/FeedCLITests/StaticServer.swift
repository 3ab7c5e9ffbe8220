import Foundation

/// `python3 -m http.server` on a free loopback port, serving `folder`; with `log`, its request
/// log (one line per request: `… "GET /path HTTP/1.1" 200 -`) goes to that file.
final class StaticServer {
    let process = Process()
    let base: String

    init(_ folder: URL, log: URL? = nil) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
        process.standardOutput = output
        if let log {
            try Data().write(to: log)
            process.standardError = try FileHandle(forWritingTo: log)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "http.server said: \(text)"])
        }
        base = "http://127.0.0.1:\(port)"
    }

    /// SIGKILL: the test process's children inherit its ignored SIGTERM.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
