import FeedTestSupport
import Foundation
import Testing

/// `feed serve` on a PostgreSQL catalog, stopped with SIGTERM while a request is in flight:
/// the order its ServiceGroup stops things in, seen from outside.
@Suite("feed serve on SIGTERM", .enabled(if: TestPostgres.url != nil))
struct ServeShutdownTests {
    @Test("SIGTERM mid-PATCH: the PATCH finishes and its offset is in PostgreSQL; the runner, then the server stop, and the catalog closes last")
    func sigtermInFlight() async throws {
        let (shared, server, upload, partSize, body) = try await Self.uploading(bodyBytes: 200_000)

        // 200 KB at 100 KB/s: the PATCH is still arriving when SIGTERM comes, and ends well
        // inside the 5 s the server gives requests in flight.
        let status = shared.folder.url("curl.out")
        FileManager.default.createFile(atPath: status.path, contents: nil)
        let slow = ServeUploadTests.slowPatch(server, upload, body: body, rate: "100k", status: try FileHandle(forWritingTo: status))
        let patch = try ChildProcess(slow)   // curl: no permit, like ServeProcess.curl
        #expect(try await waitUntil(timeout: 10, every: 0.01) { partSize() > 0 }, "the PATCH wrote nothing")
        server.child.signal(SIGTERM)

        #expect(await patch.exitStatus() == 0)
        #expect(try String(contentsOf: status, encoding: .utf8) == "204", "the PATCH in flight was cut off")
        #expect(await server.child.exits(within: 20), "feed serve did not stop within 20 s of SIGTERM")
        #expect(await server.stop() == 0, "\(server.stderr)")

        // One line per step, in the order the ServiceGroup took them: the notice (told first),
        // the runner (told next), the server once the PATCH's response went (its access-log
        // line), and the catalog last.
        let lines = server.stderr.split(separator: "\n").map(String.init)
        func line(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        let notice = line("feed serve: shutting down"), runner = line("feed serve: job runner stopped")
        let patched = line("PATCH \(upload) 204"), stopped = line("feed serve: server stopped")
        let closed = line("feed serve: catalog closed")
        let all = [notice, runner, patched, stopped, closed]
        #expect(!all.contains(nil), "a step is missing:\n\(server.stderr)")
        if let notice, let runner, let patched, let stopped, let closed {
            #expect(notice < runner && runner < stopped && patched < stopped && stopped < closed, "out of order:\n\(server.stderr)")
        }

        // What the PATCH was told is durable: another server on the same catalog resumes there.
        let next = try await ServeProcess(["--quiet", "--jobs", "0"], environment: shared.environment)
        let head = try await next.curl(upload, ["-I", "-H", "Tus-Resumable: 1.0.0"])
        #expect(head.status == 200 && head.headers["upload-offset"] == "200000", "\(head.headers)")
        await next.stop()
    }

    @Test("""
    SIGTERM mid-PATCH slower than the 5 s requests in flight get: the group is cancelled, the catalog \
    still closes last, and the bytes the PATCH brought are durable where a new server says
    """)
    func sigtermPastTheGrace() async throws {
        let (shared, server, upload, partSize, body) = try await Self.uploading(bodyBytes: 300_000)

        // 300 KB at 20 KB/s: 15 s, far past the 5 s the server gives a request in flight.
        let patch = try ChildProcess(ServeUploadTests.slowPatch(server, upload, body: body, rate: "20k"))
        #expect(try await waitUntil(timeout: 10, every: 0.01) { partSize() > 0 }, "the PATCH wrote nothing")
        server.child.signal(SIGTERM)
        #expect(await server.child.exits(within: 30), "feed serve did not stop within 30 s of SIGTERM")
        _ = await server.stop()
        _ = await patch.exitStatus()

        let lines = server.stderr.split(separator: "\n").map(String.init)
        func line(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        let runner = line("feed serve: job runner stopped"), stopped = line("feed serve: server stopped")
        let closed = line("feed serve: catalog closed")
        #expect(runner != nil && stopped != nil && closed != nil, "a step is missing:\n\(server.stderr)")
        if let runner, let stopped, let closed {
            #expect(runner < closed && stopped < closed, "the catalog closed before what uses it had stopped:\n\(server.stderr)")
        }

        // What the server kept of the cut PATCH is on disk, and no more than that is promised.
        let next = try await ServeProcess(["--quiet", "--jobs", "0"], environment: shared.environment)
        let head = try await next.curl(upload, ["-I", "-H", "Tus-Resumable: 1.0.0"])
        let offset = Int(head.headers["upload-offset"] ?? "")
        #expect(head.status == 200 && offset != nil, "\(head.headers)")
        if let offset { #expect(offset <= partSize() && offset < 300_000, "offset \(offset), part \(partSize())") }
        await next.stop()
    }

    /// A server with a job runner on a new PostgreSQL catalog, an upload of 400,000 bytes there,
    /// its part's size as it grows, and a file of `bodyBytes` to PATCH slowly.
    private static func uploading(bodyBytes: Int) async throws
        -> (shared: SharedCatalog, server: ServeProcess, upload: String, partSize: @Sendable () -> Int, body: URL) {
        let shared = try await SharedCatalog()
        let server = try await ServeProcess(["--jobs", "1"], environment: shared.environment)
        let upload = try await ServeUploadTests.create(server, length: 400_000)
        let id = String(upload.dropFirst("/uploads/".count))
        let part = shared.media.appendingPathComponent("recordings/.uploads/\(id).part")
        let partSize: @Sendable () -> Int = { ((try? FileManager.default.attributesOfItem(atPath: part.path))?[.size] as? Int) ?? 0 }
        let body = shared.folder.url("slow")
        try Data((0..<bodyBytes).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: body)
        return (shared, server, upload, partSize, body)
    }
}
