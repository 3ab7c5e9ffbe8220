import FeedTestSupport
import Foundation
import Testing

/// The LL-HLS playlist against a checker that is not feed's: `Tests/live/llhls_check.py`
/// (PyPI's `m3u8` parses the tags) follows a live stream as a player does and checks every
/// playlist against RFC 8216bis and Apple's rules, blocking timings and the 400/503 cases
/// included.
@Suite("feed serve: LL-HLS against an independent checker")
struct ServeLiveCheckerTests {
    static let script = RepositoryFiles.root.appendingPathComponent("Tests/live/llhls_check.py").path

    /// The venv's python, or why there is none: made once (`.build/m3u8-venv`).
    static var python: Result<String, PyPIVenv.SetupError> {
        get async { await setup.value }
    }

    private static let setup = Task {
        let venv = PyPIVenv(name: "m3u8-venv", package: "m3u8==6.0.0", probe: ["-c", "import m3u8"])
        return await venv.make().map { venv.bin("python") }
    }

    /// Runs the checker with `arguments`; its whole output is the failure message.
    static func check(_ python: String, _ arguments: [String]) async throws {
        let run = try await Tool.run(python, [script] + arguments, limited: false)
        #expect(run.status == 0 && run.stdout.contains("OK"), "llhls_check.py \(arguments.joined(separator: " ")): \(run.stdout)\(run.stderr)")
    }

    @Test("the checker fails each rule on a doctored server, then passes feed's: 20 s of following with blocking reloads, a stalled publisher's 503 after the hold, and the ended playlist")
    func followAndCheck() async throws {
        let python = try await Self.python.get()
        try await Self.check(python, ["--self-test"])

        let serve = try await ServeProcess(["--rtmp-port", "0"])
        let stream = try await serve.curl("/live", ["-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"title":"checked"}"#]).json()
        let url = try #require(stream["rtmp_url"] as? String) + "/" + (try #require(stream["stream_key"] as? String))
        let playback = try #require(stream["playback_url"] as? String)
        let folder = try ScratchFolder()
        let publisher = try ServeLiveTests.publisher(url, seconds: 600, log: folder.url("publisher.log"))
        defer { publisher.signal(SIGKILL) }
        try #require(try await waitUntil(timeout: 30, every: 0.2) { try await serve.curl("/live/1").json()["state"] as? String == "active" })

        // A wide slack: here the rules are what is checked (held until the part exists, 503 and
        // not the same playlist); how soon is bench/'s to measure, not a loaded test machine's.
        try await Self.check(python, [playback, "--seconds", "20", "--part-target", "0.34", "--slack", "3"])
        // The checker stops the publisher (SIGSTOP) and resumes it after the server's 503s.
        try await Self.check(python, [playback, "--check-hold", "--slack", "3", "--pause-pid", String(publisher.process.processIdentifier)])
        #expect(try await serve.curl("/live/1", ["-X", "DELETE"]).status == 200)
        try await Self.check(python, [playback, "--seconds", "5", "--slack", "3"])
        #expect(await serve.stop() == 0)
    }
}
