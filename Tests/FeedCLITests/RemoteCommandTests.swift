import FeedTestSupport
import Foundation
import Testing

/// `feed remote stack|list|roll|jobs` against a real `feed serve --jobs`.
@Suite("feed remote")
struct RemoteCommandTests {
    @Test("remote stack gives the same pictures as local feed stack (PSNR inf); roll and jobs print what the local commands print")
    func stackAndListings() async throws {
        let serve = try await ServeProcess(["--quiet", "--jobs", "1"])
        let folder = try ScratchFolder()
        let front = try await RemoteMedia.clip(folder.url("front.mp4").path, pattern: "testsrc", tone: 440)
        let back = try await RemoteMedia.clip(folder.url("back.mp4").path, pattern: "testsrc2", tone: 660)
        let env = ["XDG_STATE_HOME": folder.url("state").path, "FEED_SERVER": serve.base]
        let local = folder.url("local.mp4").path, remote = folder.url("remote.mp4").path
        let stacked = try await FeedProcess.run(["stack", front, back, "-o", local, "--layout", "hstack", "--crf", "18"])
        #expect(stacked.status == 0, "\(stacked.stderr)")
        let run = try await FeedProcess.run(["remote", "stack", front, back, "-o", remote, "--layout", "hstack", "--crf", "18", "--json"],
                                            environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let size = try RemoteMedia.size(remote)
        #expect(summary["width"] as? Int == 320 && summary["height"] as? Int == 120 && summary["bytes"] as? Int64 == size)
        let psnr = try await Tool.run("/usr/bin/ffmpeg", ["-v", "info", "-nostats", "-i", local, "-i", remote, "-lavfi", "psnr", "-f", "null", "-"])
        #expect(psnr.stderr.contains("average:inf"), "\(psnr.stderr.split(separator: "\n").filter { $0.contains("PSNR") })")
        // No temporary file is left beside the output.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }.isEmpty)
        // Again from the recordings the first run pushed; an existing output needs --force (73).
        let exists = try await FeedProcess.run(["remote", "stack", "--front-recording", "1", "--back-recording", "2", "-o", remote], environment: env)
        #expect(exists.status == 73 && exists.stderr.contains("remote.mp4: exists"), "\(exists.stderr)")

        // The listings: the same JSON as the local commands on the server's home (roll's file is
        // the server's URL there, the path here; the server names its paths by file name only).
        for (remoteArgs, localArgs) in [(["remote", "roll", "--json"], ["roll", "list", "--json"]),
                                        (["remote", "jobs", "--json"], ["jobs", "list", "--json"])] {
            let there = try await FeedProcess.run(remoteArgs, environment: env)
            let here = try await serve.home.run(localArgs)
            #expect(there.status == 0 && here.status == 0, "\(there.stderr)\(here.stderr)")
            func strip(_ text: String) throws -> [NSDictionary] {
                try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]).map {
                    var row = $0
                    row["file"] = nil
                    func name(_ path: Any?) -> Any? { (path as? String).map { ($0 as NSString).lastPathComponent } }
                    if row["original_path"] != nil { row["original_path"] = name(row["original_path"]) }
                    if let sources = row["sources"] as? [String] { row["sources"] = sources.map { name($0) as? String ?? $0 } }
                    return row as NSDictionary
                }
            }
            #expect(try strip(there.stdout) == strip(here.stdout) && !(try strip(here.stdout)).isEmpty, "\(there.stdout)\n\(here.stdout)")
        }
        let table = try await FeedProcess.run(["remote", "jobs"], environment: env)
        #expect(table.lines.first?.hasPrefix("ID  STATE  KIND") == true && table.lines.count == 2, "\(table.stdout)")
        let list = try await FeedProcess.run(["remote", "list", "--json", "--sort", "likes", "--limit", "2"], environment: env)
        let localList = try await FeedProcess.run(["list", "--json", "--sort", "likes", "--limit", "2"])
        #expect(list.status == 0 && list.stdout == localList.stdout, "\(list.stderr)")
        await serve.stop()
    }

    @Test("a job that fails on the server exits 65 with the server's message, and leaves no output")
    func failedJob() async throws {
        let serve = try await ServeProcess(["--quiet", "--jobs", "1"])
        let folder = try ScratchFolder()
        // Clips with no sound: --sync audio has nothing to match, so the job fails on the server.
        let a = try TestMedia.seededClip(folder.url("a.mp4").path, seed: 1)
        let b = try TestMedia.seededClip(folder.url("b.mp4").path, seed: 2)
        let out = folder.url("out.mp4").path
        let run = try await FeedProcess.run(["remote", "stack", a, b, "-o", out, "--sync", "audio", "--server", serve.base],
                                            environment: ["XDG_STATE_HOME": folder.url("state").path])
        #expect(run.status == 65 && run.stderr.contains("job 1 failed:"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let missing = try await FeedProcess.run(["remote", "stack", "--front-recording", "9", "--back-recording", "1", "-o", out,
                                                 "--server", serve.base])
        #expect(missing.status == 65 && missing.stderr.contains("9"), "\(missing.stderr)")
        await serve.stop()
    }

    @Test("an answer that names no kind (a proxy's) is read through FailureKind's one table: 401 exits 77, 404 65, 502 74")
    func proxyAnswers() async throws {
        // A proxy in front of a server that is down or refusing: a status and a line of text.
        let server = try await ScriptedServer("""
            import socket, sys, threading
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
            open(sys.argv[1], "w").write(str(s.getsockname()[1]))
            def answer(c):
                path = c.recv(65536).split(b" ")[1]
                status = {b"/401": b"401 Unauthorized", b"/404": b"404 Not Found"}.get(path.split(b"/jobs")[0], b"502 Bad Gateway")
                c.sendall(b"HTTP/1.1 " + status + b"\\r\\nContent-Type: text/plain\\r\\nContent-Length: 6\\r\\nConnection: close\\r\\n\\r\\nproxy\\n")
                c.close()
            while True:
                c = s.accept()[0]
                threading.Thread(target=answer, args=(c,), daemon=True).start()
            """)
        defer { server.stop() }
        for (prefix, status) in [("/401", Int32(77)), ("/404", 65), ("/502", 74)] {
            let run = try await FeedProcess.run(["remote", "jobs", "--server", "http://127.0.0.1:\(server.port)\(prefix)"])
            #expect(run.status == status, "\(prefix): \(run.stderr)")
            #expect(run.stderr.contains("HTTP \(prefix.dropFirst())"), "\(run.stderr)")
        }
    }

    @Test("a server whose JSON answer never ends, or announces 100 MB: the client stops at 32 MiB, exit 65 in one line")
    func endlessAnswer() async throws {
        let server = try await ScriptedServer("""
            import socket, sys, threading
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
            open(sys.argv[1], "w").write(str(s.getsockname()[1]))
            def answer(c):
                path = c.recv(65536).split(b" ")[1]
                try:
                    if path.startswith(b"/announced"):
                        c.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: 100000000\\r\\n\\r\\n[")
                    else:
                        c.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n")
                        chunk = b"%x\\r\\n%s\\r\\n" % (65536, b" " * 65536)
                        while True: c.sendall(chunk)
                except OSError:
                    pass
                c.close()
            while True:
                c = s.accept()[0]
                threading.Thread(target=answer, args=(c,), daemon=True).start()
            """)
        defer { server.stop() }
        for prefix in ["/endless", "/announced"] {
            let run = try await FeedProcess.run(["remote", "jobs", "--server", "http://127.0.0.1:\(server.port)\(prefix)"])
            #expect(run.status == 65, "\(prefix): \(run.stderr)")
            #expect(run.stderr.contains("larger than 32 MiB") && run.stderr.split(separator: "\n").count == 1, "\(prefix): \(run.stderr)")
        }
    }
}
