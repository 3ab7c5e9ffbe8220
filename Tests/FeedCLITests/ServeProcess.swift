import FeedTestSupport
import Foundation
import Testing

/// A real `feed serve --port 0` in a scratch home, stopped with SIGTERM when done.
final class ServeProcess {
    let home: RollHome
    let process = Process()
    /// `http://127.0.0.1:PORT`, from the first line the server printed.
    let base: String
    private let stderrURL: URL

    /// Starts `feed serve --port 0 extra…` (with `environment` added) and waits (10 s at most) for its first line.
    init(_ extra: [String] = [], home: RollHome? = nil, environment added: [String: String] = [:]) throws {
        let home = try home ?? RollHome()
        self.home = home
        let out = home.folder.url("serve.out"), err = home.folder.url("serve.err")
        stderrURL = err
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = FeedProcess.executable
        process.arguments = ["serve", "--port", "0"] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["FEED_HOME"] = home.home.path
        environment["FEED_PATH"] = nil
        environment.merge(added) { $1 }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var line = ""
        while Date() < deadline {
            let text = String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self)
            if let end = text.firstIndex(of: "\n") { line = String(text[..<end]); break }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard line.hasPrefix("serving on http://") else {
            process.terminate()
            let err = String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self)
            throw ServeError.didNotStart(firstLine: line, stderr: err)
        }
        base = String(line.dropFirst("serving on ".count))
    }

    enum ServeError: Error { case didNotStart(firstLine: String, stderr: String) }

    /// What the server wrote on stderr so far (the access log).
    var stderr: String { String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self) }

    /// SIGTERM, then the exit status (10 s at most).
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        // Under `make sanitize` the server is instrumented too: any report fails the test.
        #expect(!stderr.contains("Sanitizer"), "\(stderr)")
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

    /// One curl request: status, headers (lower-cased names), body.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> [String: Any] { try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(text)") }
    }

    /// `curl -s -D - PATH` with `arguments` (e.g. `["-r", "0-1"]`, `["-X", "DELETE"]`).
    func curl(_ path: String, _ arguments: [String] = []) throws -> Reply {
        try Self.curl(base + path, arguments)
    }

    static func curl(_ url: String, _ arguments: [String] = []) throws -> Reply {
        let scratch = try ScratchFolder()
        let headers = scratch.url("headers"), body = scratch.url("body")
        let run = try Tool.run("/usr/bin/curl", ["-s", "--path-as-is", "--max-time", "20", "-D", headers.path, "-o", body.path] + arguments + [url])
        #expect(run.status == 0 || run.status == 28, "curl \(url): \(run.status) \(run.stderr)")
        let headerText = String(decoding: (try? Data(contentsOf: headers)) ?? Data(), as: UTF8.self)
        // The last response's block (after any 100 Continue).
        let block = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.last ?? ""
        var lines = block.components(separatedBy: "\r\n")
        let statusLine = lines.isEmpty ? "" : lines.removeFirst()
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: fields, body: (try? Data(contentsOf: body)) ?? Data())
    }
}

/// Runs a command-line tool and waits for it, output captured in files.
enum Tool {
    static func run(_ path: String, _ arguments: [String]) throws -> FeedRun {
        let scratch = try ScratchFolder()
        let out = scratch.url("out"), err = scratch.url("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return FeedRun(status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
