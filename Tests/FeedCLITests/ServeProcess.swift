import FeedTestSupport
import Foundation
import Testing

/// A real `feed serve --port 0` in a scratch home. ``stop()`` ends it with SIGTERM; a test that
/// throws before it gets there leaves the server to `deinit`, which sends SIGKILL (Foundation
/// reaps it; nothing waits).
final class ServeProcess {
    let home: RollHome
    /// The running server; its exit is awaited with `child.exitStatus()`.
    let child: ChildProcess
    /// `http://127.0.0.1:PORT`, from the first line the server printed.
    let base: String
    private let stderrURL: URL

    /// The server's `Process` (its pid; `terminationReason` once it has exited).
    var process: Process { child.process }

    /// Starts `feed serve --port 0 extra…` (with `environment` added) and waits (10 s at most)
    /// for its first line. The server holds no permit of ``ProcessLimiter``: it lives for the
    /// whole test.
    init(_ extra: [String] = [], home: RollHome? = nil, environment added: [String: String] = [:]) async throws {
        let home = try home ?? RollHome()
        self.home = home
        let out = home.folder.url("serve.out"), err = home.folder.url("serve.err")
        stderrURL = err
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = FeedProcess.executable
        // Hundreds of tests share two cores: a catalog may take seconds to answer /healthz.
        process.arguments = ["serve", "--port", "0", "--catalog-timeout", "120"] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["FEED_HOME"] = home.home.path
        environment["FEED_PATH"] = nil
        environment.merge(added) { $1 }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        let child = try ChildProcess(process)
        // The server has its own copies; this process's would stay open as long as the Process
        // lives, hundreds over the suite (see ChildProcess.run(limited:_:)).
        try? outHandle.close()
        try? errHandle.close()
        self.child = child
        func firstLine() -> String? {
            let text = String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self)
            return text.firstIndex(of: "\n").map { String(text[..<$0]) }
        }
        try await waitUntil(timeout: 10) { firstLine() != nil || child.hasExited }
        let line = firstLine() ?? ""
        guard line.hasPrefix("serving on http://") else {
            await child.stop(SIGKILL, timeout: 10)
            let err = String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self)
            throw ServeError.didNotStart(firstLine: line, stderr: err)
        }
        base = String(line.dropFirst("serving on ".count))
    }

    enum ServeError: Error { case didNotStart(firstLine: String, stderr: String) }

    /// What the server wrote on stderr so far (the access log).
    var stderr: String { String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self) }

    /// SIGTERM, then the exit status (10 s at most, then SIGKILL); a sanitizer report on stderr
    /// fails the test.
    @discardableResult
    func stop() async -> Int32 {
        let status = await child.stop(SIGTERM, timeout: 10)
        // Under `make sanitize` the server is instrumented too: any report fails the test.
        #expect(!stderr.contains("Sanitizer"), "\(stderr)")
        return status
    }

    /// SIGKILL, and waits for the exit.
    func crash() async {
        await child.stop(SIGKILL, timeout: 10)
    }

    deinit { child.signal(SIGKILL) }

    /// One curl request: status, headers (lower-cased names), body.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> [String: Any] { try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(text)") }
        /// The problem details' `kind` and `detail`, nil unless the body is RFC 9457 problem
        /// details (`application/problem+json`) whose `status` is the response's.
        var problem: (kind: String, detail: String)? {
            guard headers["content-type"] == "application/problem+json",
                  let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                  object["status"] as? Int == status, object["type"] as? String == "about:blank",
                  let kind = object["kind"] as? String, let detail = object["detail"] as? String else { return nil }
            return (kind, detail)
        }
    }

    /// `curl -s -D - PATH` with `arguments` (e.g. `["-r", "0-1"]`, `["-X", "DELETE"]`). Every
    /// answer that is not media is checked for the server's own folders (its home, and the
    /// folder of its `--feed`): none may show in what it tells a client.
    func curl(_ path: String, _ arguments: [String] = []) async throws -> Reply {
        let reply = try await Self.curl(base + path, arguments)
        let type = reply.headers["content-type"] ?? ""
        if !type.hasPrefix("video/"), !type.hasPrefix("image/"), !type.contains("octet-stream"), !type.contains("mp2t") {
            let text = String(decoding: reply.body, as: UTF8.self) + reply.headers.values.joined(separator: "\n")
            for folder in privateFolders where text.contains(folder) {
                Issue.record("\(path): the answer names the server's folder \(folder): \(text.prefix(400))")
            }
        }
        return reply
    }

    /// Folders of the server's that no answer may name.
    var privateFolders: [String] {
        var folders = [home.folder.url.path]
        if let index = process.arguments?.firstIndex(of: "--feed"), let feed = process.arguments?.dropFirst(index + 1).first, feed != "-",
           !feed.hasPrefix("http") {
            let folder = URL(fileURLWithPath: feed).deletingLastPathComponent().path
            if folder.count > 1 { folders.append(folder) }
        }
        return folders
    }

    /// ``curl(_:_:)`` of a whole URL. curl takes no permit of ``ProcessLimiter``: it is light,
    /// and a test often asks a server about a job or an upload that would move on while the
    /// request waited in the queue.
    static func curl(_ url: String, _ arguments: [String] = []) async throws -> Reply {
        let scratch = try ScratchFolder()
        let headers = scratch.url("headers"), body = scratch.url("body")
        let run = try await Tool.run("/usr/bin/curl", ["-s", "--path-as-is", "--max-time", "20", "-D", headers.path, "-o", body.path] + arguments + [url],
                                    limited: false)
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

/// Runs a command-line tool and waits for it, output captured in files (see ``FeedProcess``).
enum Tool {
    /// Runs `path arguments…`; with `limited`, under a permit of ``ProcessLimiter/shared``.
    static func run(_ path: String, _ arguments: [String], limited: Bool = true) async throws -> FeedRun {
        try await FeedProcess.run(arguments, executable: URL(fileURLWithPath: path), limited: limited)
    }
}
