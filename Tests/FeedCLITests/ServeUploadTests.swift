import Crypto
import FeedTestSupport
import Foundation
import Testing

/// The Python tus client (tuspy) driving Scripts/tus_upload.py: python3 when it already has
/// tuspy, else a virtual environment in `.build/tuspy-venv` made once with `pip install tuspy`.
enum Tuspy {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedCLITests/Scripts/tus_upload.py").path

    /// The interpreter to run, or why there is none: found (or made) once, by the first test that asks.
    static var python: Result<String, PyPIVenv.SetupError> {
        get async { await setup.value }
    }

    private static let setup = Task { await findOrMake() }

    private static func findOrMake() async -> Result<String, PyPIVenv.SetupError> {
        if (try? await Tool.run("/usr/bin/env", ["python3", "-c", "import tusclient"]))?.status == 0 {
            return .success("python3")
        }
        let venv = PyPIVenv(name: "tuspy-venv", package: "tuspy", probe: ["-c", "import tusclient"])
        return await venv.make().map { venv.bin("python") }
    }

    /// Runs tus_upload.py with `arguments`.
    static func run(_ arguments: [String]) async throws -> FeedRun {
        let python = try await python.get()
        return python == "python3" ? try await Tool.run("/usr/bin/env", ["python3", script] + arguments) : try await Tool.run(python, [script] + arguments)
    }

    /// Runs it and parses its `{"url","offset","size"}` line.
    static func upload(_ arguments: [String]) async throws -> (url: String, offset: Int) {
        let run = try await run(arguments)
        #expect(run.status == 0, "tus_upload.py: \(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        return (try #require(object["url"] as? String), try #require(object["offset"] as? Int))
    }
}

/// `feed serve`'s resumable uploads (tus 1.0.0 at /uploads) over a real socket: tuspy for
/// whole, chunked and resumed uploads (across a kill -9), curl for each protocol error.
@Suite("feed serve uploads (tus)")
struct ServeUploadTests {
    static let tus = ["-H", "Tus-Resumable: 1.0.0"]

    /// A clip of `frames` frames in the home's scratch folder: its path and bytes.
    static func clip(_ home: RollHome, _ name: String, seed: Int, frames: Int = 30) throws -> (path: String, bytes: Data) {
        let path = try TestMedia.seededClip(home.folder.path(name), seed: seed, width: 64, height: 48, frames: frames, fps: 10)
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    /// `POST /uploads` for `length` bytes; the new upload's path (`/uploads/ID`).
    static func create(_ server: ServeProcess, length: Int, filename: String = "clip.mp4") async throws -> String {
        let metadata = "filename " + Data(filename.utf8).base64EncodedString()
        let reply = try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: \(length)", "-H", "Upload-Metadata: \(metadata)"] + tus)
        #expect(reply.status == 201, "\(reply.text)")
        let location = try #require(reply.headers["location"])
        #expect(location.hasPrefix(server.base + "/uploads/"))
        return String(location.dropFirst(server.base.count))
    }

    /// `PATCH path` with `bytes` at `offset`.
    static func patch(_ server: ServeProcess, _ path: String, _ bytes: Data, offset: Int,
                      type: String = "application/offset+octet-stream", extra: [String] = tus) async throws -> ServeProcess.Reply {
        let scratch = try ScratchFolder()
        let body = scratch.url("body")
        try bytes.write(to: body)
        return try await server.curl(path, ["-X", "PATCH", "-H", "Content-Type: \(type)", "-H", "Upload-Offset: \(offset)",
                                            "--data-binary", "@\(body.path)"] + extra)
    }

    /// A curl that PATCHes the file at `body` to `upload` from offset 0 at `rate` (`150k`),
    /// printing the status on `status` (default: nowhere); configured, not yet run.
    static func slowPatch(_ server: ServeProcess, _ upload: String, body: URL, rate: String, status: FileHandle = .nullDevice) -> Process {
        let slow = Process()
        slow.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        slow.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--limit-rate", rate, "-X", "PATCH",
                          "-H", "Content-Type: application/offset+octet-stream", "-H", "Upload-Offset: 0", "-H", "Tus-Resumable: 1.0.0",
                          "--data-binary", "@\(body.path)", server.base + upload]
        slow.standardOutput = status
        return slow
    }

    /// `GET /uploads/ID` until it is done or failed (40 s at most); the last status.
    static func finished(_ server: ServeProcess, _ path: String) async throws -> [String: Any] {
        // A crash mid-request leaves the upload claimed for the claim's lease (10 s); the next
        // recovery sweep after that finishes it.
        var status: [String: Any] = [:]
        try await waitUntil(timeout: 40, every: 0.1) {
            status = try await server.curl(path).json()
            return ["done", "failed"].contains(status["state"] as? String)
        }
        return status
    }

    /// The recording `id` as `/roll` lists it, and as `feed roll list --json` does.
    static func listed(_ server: ServeProcess, id: Int) async throws -> (http: [String: Any]?, cli: [String: Any]?) {
        let http = (try await server.curl("/roll").json()["recordings"] as? [[String: Any]])?.first { $0["id"] as? Int == id }
        let run = try await server.home.run(["roll", "list", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        return (http, try run.objects().first { $0["id"] as? Int == id })
    }

    @Test("tuspy uploads a clip in chunks: done, and the recording is in /roll and feed roll list with the same bytes")
    func chunked() async throws {
        let home = try RollHome()
        let (path, bytes) = try Self.clip(home, "beach.mp4", seed: 11)
        let server = try await ServeProcess(["--quiet"], home: home)

        let chunk = max(1024, bytes.count / 5)
        #expect(bytes.count > 3 * chunk, "several PATCHes")
        let (url, offset) = try await Tuspy.upload(["--file", path, "--endpoint", server.base + "/uploads", "--chunk-size", "\(chunk)",
                                                    "--metadata", "filename=beach.mp4", "--metadata", "title=At the beach"])
        #expect(offset == bytes.count && url.hasPrefix(server.base + "/uploads/"))
        let upload = String(url.dropFirst(server.base.count))
        let status = try await server.curl(upload).json()
        #expect(status["state"] as? String == "done" && status["offset"] as? Int == bytes.count, "\(status)")
        #expect(status["filename"] as? String == "beach.mp4" && status["title"] as? String == "At the beach")
        let id = try #require(status["recording_id"] as? Int)
        #expect(status["recording_url"] as? String == server.base + "/media/roll/\(id)")

        let (http, cli) = try await Self.listed(server, id: id)
        #expect(http?["sha256"] as? String == Self.sha256(bytes) && http?["title"] as? String == "At the beach")
        #expect(cli?["sha256"] as? String == Self.sha256(bytes) && cli?["bytes"] as? Int == bytes.count)
        // Named as the client named it, over HTTP and in the CLI, not by the upload's id.
        #expect(http?["original_path"] as? String == "beach.mp4" && cli?["original_path"] as? String == "beach.mp4")
        let stored = try Data(contentsOf: URL(fileURLWithPath: try #require(cli?["file"] as? String)))
        #expect(stored == bytes)
        #expect(try await server.curl("/media/roll/\(id)").body == bytes)
        #expect(home.hidden(".uploads").isEmpty, "the bytes went into the roll; the record is in the catalog")
        #expect(home.hidden(".incoming").isEmpty)
        #expect(try await home.run(["roll", "verify"]).status == 0)
        await server.stop()
    }

    @Test("kill -9 mid-upload: after a restart HEAD gives the bytes received and tuspy resumes to done")
    func resumeAfterKill() async throws {
        let home = try RollHome()
        let (path, bytes) = try Self.clip(home, "long.mp4", seed: 12, frames: 60)
        let chunk = max(1024, bytes.count / 8)
        let first = try await ServeProcess(["--quiet"], home: home)

        let (url, offset) = try await Tuspy.upload(["--file", path, "--endpoint", first.base + "/uploads", "--chunk-size", "\(chunk)",
                                                    "--chunks", "3", "--metadata", "filename=long.mp4"])
        #expect(offset == 3 * chunk)
        let upload = String(url.dropFirst(first.base.count)), id = String(upload.dropFirst("/uploads/".count))
        await first.crash()
        #expect(first.process.terminationReason == .uncaughtSignal)
        #expect(home.hidden(".uploads") == ["\(id).part"])

        let second = try await ServeProcess(["--quiet"], home: home)
        let head = try await second.curl(upload, ["-I"] + Self.tus)
        #expect(head.status == 200 && head.headers["upload-offset"] == String(3 * chunk) && head.headers["upload-length"] == String(bytes.count))
        #expect(head.headers["cache-control"] == "no-store" && head.headers["tus-resumable"] == "1.0.0")
        #expect(head.headers["upload-metadata"] == "filename " + Data("long.mp4".utf8).base64EncodedString())

        let resumed = try await Tuspy.upload(["--file", path, "--url", second.base + upload, "--chunk-size", "\(chunk)"])
        #expect(resumed.offset == bytes.count)
        let status = try await second.curl(upload).json()
        let recording = try #require(status["recording_id"] as? Int, "\(status)")
        #expect(try await second.curl("/media/roll/\(recording)").body == bytes)
        #expect(try await Self.listed(second, id: recording).cli?["sha256"] as? String == Self.sha256(bytes))
        #expect(try await home.run(["roll", "verify"]).status == 0)
        await second.stop()
    }

    @Test("a crash inside the roll's add (file renamed in, no row): the restart finishes it, one recording, verify clean")
    func crashWhileAdding() async throws {
        let home = try RollHome()
        let (path, bytes) = try Self.clip(home, "crash.mp4", seed: 13)
        let first = try await ServeProcess(["--quiet"], home: home, environment: ["FEED_ROLL_CRASH_AT": "add.renamed"])

        let run = try await Tuspy.run(["--file", path, "--endpoint", first.base + "/uploads", "--metadata", "filename=crash.mp4"])
        #expect(run.status == 1, "the last PATCH dies with the server: \(run.stdout)")
        await first.child.exitStatus()
        #expect(first.process.terminationReason == .uncaughtSignal)
        let rows = try await home.rows()
        #expect(home.storedFiles().count == 1 && rows.isEmpty)
        let id = try #require(home.hidden(".uploads").first(where: { $0.hasSuffix(".part") })).dropLast(5)

        let second = try await ServeProcess(["--quiet"], home: home)
        let status = try await Self.finished(second, "/uploads/\(id)")
        let recording = try #require(status["recording_id"] as? Int, "\(status)")
        #expect(try await second.curl("/media/roll/\(recording)").body == bytes)
        #expect(try await home.rows().count == 1 && home.storedFiles().count == 1)
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        await second.stop()
    }

    @Test("OPTIONS advertises tus; POST, HEAD, PATCH and DELETE answer as tus says, errors included")
    func protocolRules() async throws {
        let server = try await ServeProcess(["--quiet"])

        let options = try await server.curl("/uploads", ["-X", "OPTIONS"])
        #expect(options.status == 204 && options.headers["tus-version"] == "1.0.0" && options.headers["tus-resumable"] == "1.0.0")
        #expect(options.headers["tus-extension"]?.split(separator: ",").contains("creation") == true)
        #expect(options.headers["tus-extension"]?.split(separator: ",").contains("termination") == true)
        let maxSize = try #require(options.headers["tus-max-size"].flatMap { Int($0) })

        let noVersion = try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 10"])
        #expect(noVersion.status == 412 && noVersion.headers["tus-version"] == "1.0.0")
        #expect(try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 10", "-H", "Tus-Resumable: 0.2.2"]).status == 412)
        #expect(try await server.curl("/uploads", ["-X", "POST"] + Self.tus).status == 400)
        #expect(try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: -5"] + Self.tus).status == 400)
        #expect(try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 10", "-H", "Upload-Metadata: filename !!"] + Self.tus).status == 400)
        let tooBig = try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: \(maxSize + 1)"] + Self.tus)
        #expect(tooBig.status == 413 && tooBig.headers["tus-resumable"] == "1.0.0")
        #expect(tooBig.problem?.kind == "tooLarge")

        let created = try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 100"] + Self.tus)
        #expect(created.status == 201 && created.headers["tus-resumable"] == "1.0.0" && created.headers["upload-expires"]?.hasSuffix(" GMT") == true)
        let upload = String(try #require(created.headers["location"]).dropFirst(server.base.count))
        let head = try await server.curl(upload, ["-I"] + Self.tus)
        #expect(head.status == 200 && head.headers["upload-offset"] == "0" && head.headers["upload-length"] == "100")
        #expect(head.headers["cache-control"] == "no-store")
        #expect(try await server.curl(upload, ["-I"]).status == 412)

        let ten = Data(repeating: 7, count: 10)
        #expect(try await Self.patch(server, upload, ten, offset: 0, type: "application/octet-stream").status == 415)
        #expect(try await Self.patch(server, upload, ten, offset: 0, extra: []).status == 412)
        let wrong = try await Self.patch(server, upload, ten, offset: 5)
        #expect(wrong.status == 409 && wrong.headers["tus-resumable"] == "1.0.0")
        #expect(wrong.problem?.kind == "conflict")
        let good = try await Self.patch(server, upload, ten, offset: 0)
        #expect(good.status == 204 && good.headers["upload-offset"] == "10" && good.headers["upload-expires"] != nil)
        let past = try await Self.patch(server, upload, Data(repeating: 1, count: 91), offset: 10)
        #expect(past.status == 413)
        #expect(try await server.curl(upload, ["-I"] + Self.tus).headers["upload-offset"] == "10")
        #expect(try await server.curl(upload).json()["state"] as? String == "uploading")

        #expect(try await server.curl(upload, ["-X", "DELETE"]).status == 412)
        #expect(try await server.curl(upload, ["-X", "DELETE"] + Self.tus).status == 204)
        #expect(try await server.curl(upload, ["-I"] + Self.tus).status == 404)
        #expect(try await server.curl(upload, ["-X", "DELETE"] + Self.tus).status == 404)
        #expect(try await server.curl(upload).status == 404)
        #expect(server.home.hidden(".uploads").isEmpty)
        await server.stop()
    }

    @Test("unknown and path-like ids: 404 for HEAD, PATCH, DELETE and GET, and nothing outside is touched",
          arguments: ["/uploads/00000000000000000000000000000000", "/uploads/..%2F..%2Fetc%2Fpasswd", "/uploads/../../etc/passwd",
                      "/uploads/%2e%2e", "/uploads/..", "/uploads/0123456789abcdef0123456789abcde%00", "/uploads/0123456789ABCDEF0123456789ABCDEF",
                      "/uploads/%2Fetc%2Fpasswd", "/uploads/0123456789abcdef0123456789abcdef.json"])
    func unknownIDs(path: String) async throws {
        let server = try await ServeProcess(["--quiet"])

        #expect(try await server.curl(path, ["-I"] + Self.tus).status == 404, "HEAD \(path)")
        #expect(try await Self.patch(server, path, Data([1]), offset: 0).status == 404, "PATCH \(path)")
        #expect(try await server.curl(path, ["-X", "DELETE"] + Self.tus).status == 404, "DELETE \(path)")
        let get = try await server.curl(path)
        #expect(get.status == 404 && !get.text.contains("root:"), "GET \(path)")
        await server.stop()
    }

    @Test("a file that is not a video: failed with the reason, nothing added, verify clean")
    func notMedia() async throws {
        let server = try await ServeProcess(["--quiet"])

        let text = Data("a shopping list, not a video\n".utf8)
        let upload = try await Self.create(server, length: text.count, filename: "list.txt")
        #expect(try await Self.patch(server, upload, text, offset: 0).status == 204)
        let status = try await server.curl(upload).json()
        #expect(status["state"] as? String == "failed" && status["recording_id"] is NSNull, "\(status)")
        let reason = try #require(status["error"] as? String)
        #expect(reason.hasPrefix("list.txt: not a video file") && reason.hasSuffix("nothing was added"), "\(reason)")
        #expect(try await server.home.rows().isEmpty && server.home.storedFiles().isEmpty)
        #expect(server.home.hidden(".uploads").isEmpty)
        #expect(try await server.home.run(["roll", "verify"]).status == 0)
        await server.stop()
    }

    @Test("two PATCHes to one upload at once: the second is refused (423 Locked, Retry-After) and the first's bytes land whole")
    func concurrentPatches() async throws {
        let server = try await ServeProcess(["--quiet"])
        let upload = try await Self.create(server, length: 400_000)
        let scratch = try ScratchFolder()
        let body = scratch.url("slow")
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: body)
        // 6 s: the two requests each start a process, which can take a second on a loaded machine.
        let slow = Self.slowPatch(server, upload, body: body, rate: "50k")
        let id = String(upload.dropFirst("/uploads/".count))
        let partURL = server.home.recordings.appendingPathComponent(".uploads/\(id).part")
        let partSize = { ((try? FileManager.default.attributesOfItem(atPath: partURL.path))?[.size] as? Int) ?? 0 }
        // The slow PATCH (6 s) holds the upload once its first bytes are in the part; the two
        // requests go while it does.
        let slowPatch = try await promptly {
            let slowPatch = try ChildProcess(slow)   // curl: no permit, like ServeProcess.curl
            #expect(try await waitUntil(timeout: 10, every: 0.01) { partSize() > 0 }, "the slow PATCH wrote nothing")
            let second = try await Self.patch(server, upload, Data(repeating: 9, count: 1000), offset: 0)
            #expect(second.status == 423 && second.headers["retry-after"] == "10" && second.problem?.kind == "conflict", "\(second.text)")
            let concurrentDelete = try await server.curl(upload, ["-X", "DELETE"] + Self.tus)
            #expect(concurrentDelete.status == 423)
            #expect(!slowPatch.hasExited, "the slow PATCH ended before the two requests did")
            return slowPatch
        }
        await slowPatch.exitStatus()
        #expect(try await server.curl(upload, ["-I"] + Self.tus).headers["upload-offset"] == "300000")
        let part = try Data(contentsOf: partURL)
        #expect(try part == Data(contentsOf: body))
        await server.stop()
    }

    @Test("a PATCH whose client goes away mid-body: logged as 400 (the client's doing), not 500; the bytes that came are kept")
    func clientGoesAway() async throws {
        let server = try await ServeProcess()
        let upload = try await Self.create(server, length: 400_000)
        let scratch = try ScratchFolder()
        let body = scratch.url("slow")
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: body)
        let id = String(upload.dropFirst("/uploads/".count))
        let partURL = server.home.recordings.appendingPathComponent(".uploads/\(id).part")
        let partSize = { ((try? FileManager.default.attributesOfItem(atPath: partURL.path))?[.size] as? Int) ?? 0 }
        // 15 s to send it all: it is cut as soon as its first bytes are in the file, and on a loaded
        // machine (the whole suite under AddressSanitizer) the wait for them can take seconds.
        let slow = try ChildProcess(Self.slowPatch(server, upload, body: body, rate: "20k"))
        try await waitUntil(timeout: 10, every: 0.01) { partSize() > 0 || slow.hasExited }
        #expect(!slow.hasExited, "the slow PATCH ended before it could be cut")
        await slow.stop(SIGKILL, timeout: 5)
        try await waitUntil(timeout: 10, every: 0.05) { server.stderr.contains("PATCH \(upload) ") }
        #expect(server.stderr.contains("PATCH \(upload) 400 "), "\(server.stderr)")
        let offset = try await server.curl(upload, ["-I"] + Self.tus).headers["upload-offset"].flatMap { Int($0) }
        #expect((offset ?? 0) > 0 && (offset ?? 0) < 300_000, "\(String(describing: offset))")
        let part = try Data(contentsOf: partURL), sent = try Data(contentsOf: body)
        #expect(part.count == offset && part == sent.prefix(part.count))
        let stopped = await server.stop()
        #expect(stopped == 0, "exit \(stopped): \(server.stderr.suffix(800))")
    }

    @Test("--upload-expiry: an unfinished upload is gone after it, files and all")
    func expiry() async throws {
        let server = try await ServeProcess(["--quiet", "--upload-expiry", "1"])
        // Created and written at once: a second's pause between them expires it already, which
        // a loaded machine can take between two curls; then it is made again (at most 5 times).
        var written: String?
        for _ in 0..<5 where written == nil {
            written = try await promptly {
                let upload = try await Self.create(server, length: 100)
                let status = try await Self.patch(server, upload, Data(repeating: 1, count: 10), offset: 0).status
                #expect(status == 204 || status == 404, "\(status)")
                return status == 204 ? upload : nil
            }
        }
        let upload = try #require(written, "no upload was written within a second of its creation, 5 times")
        // The sweep removes the record, then the part: wait for both (the expiry is 1 s).
        var head = 0
        let gone = try await waitUntil(timeout: 30, every: 0.1) {
            head = try await server.curl(upload, ["-I"] + Self.tus).status
            return head == 404 && server.home.hidden(".uploads").isEmpty
        }
        #expect(gone, "HEAD \(head), .uploads: \(server.home.hidden(".uploads"))")
        #expect(try await FeedProcess.run(["serve", "--upload-expiry", "0"]).status == 64)
        await server.stop()
    }

    @Test("with --token: creating, reading the offset and writing need it; OPTIONS does not")
    func token() async throws {
        let server = try await ServeProcess(["--quiet", "--token", "s3cret"])
        #expect(try await server.curl("/uploads", ["-X", "OPTIONS"]).status == 204)
        #expect(try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 10"] + Self.tus).status == 401)
        let created = try await server.curl("/uploads", ["-X", "POST", "-H", "Upload-Length: 10", "-H", "Authorization: Bearer s3cret"] + Self.tus)
        #expect(created.status == 201)
        let upload = String(try #require(created.headers["location"]).dropFirst(server.base.count))
        #expect(try await server.curl(upload, ["-I"] + Self.tus).status == 401)
        #expect(try await server.curl(upload, ["-I", "-H", "Authorization: Bearer s3cret"] + Self.tus).status == 200)
        #expect(try await Self.patch(server, upload, Data([1]), offset: 0).status == 401)
        await server.stop()
    }
}
