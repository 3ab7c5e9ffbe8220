import FeedTestSupport
import Foundation
import Testing

/// schemathesis (from PyPI, in `.build/schemathesis-venv`, made once) against a real
/// `feed serve` on SQLite and on PostgreSQL: every operation of openapi.yaml with positive and
/// negative data and stateful sequences, every check on (Tests/schemathesis/schemathesis.toml
/// says which statuses count as a refusal). Left out: the two SSE streams (endless bodies) and
/// tus's PATCH (its media type has no serializer), which the tus tests drive with tuspy. One
/// worker: with threads, CPython 3.11's `ast` can fail inside hypothesis ("AST constructor
/// recursion depth mismatch"), an error of the tool, not a finding.
enum Schemathesis {
    static let config = RepositoryFiles.root.appendingPathComponent("Tests/schemathesis/schemathesis.toml").path

    /// The `schemathesis` executable, or why there is none: made once (`.build/schemathesis-venv`).
    static var executable: Result<String, PyPIVenv.SetupError> {
        get async { await setup.value }
    }

    private static let setup = Task {
        let venv = PyPIVenv(name: "schemathesis-venv", package: "schemathesis", probe: ["-c", "import schemathesis"])
        return await venv.make().map { venv.bin("schemathesis") }
    }

    /// Runs schemathesis against the server at `base`; its exit status and output.
    /// Every check but use-after-free: DELETE /jobs/{id} cancels a job, which stays readable in
    /// state `cancelled` (as `feed jobs list` shows it), where the check wants a 404 after any
    /// DELETE; that is right for DELETE /roll/{id}, which ServeCommandTests checks.
    static func run(against base: String, token: String) async throws -> FeedRun {
        let tool = try await executable.get()
        return try await Tool.run(tool, ["--no-color", "--config-file", config, "run", base + "/openapi.json",
                                         "--header", "Authorization: Bearer \(token)",
                                         "--checks", "all", "--exclude-checks", "use_after_free", "--max-examples", "40", "--workers", "1", "--seed", "20261125",
                                         "--exclude-path-regex", "/(comments/live|jobs/\\{id\\}/events|live/\\{id\\}/events)$",
                                         "--exclude-operation-id", "tusPatch"], limited: false)
    }
}

@Suite("schemathesis: feed serve against openapi.yaml")
struct SchemathesisTests {
    /// A secret file in `folder`, and an admin JWT `feed token` mints with it. The server runs
    /// keyed, so the document's security holds: ignored_auth checks every operation refuses a
    /// request without the token (401) and with a wrong one.
    static func keyed(_ folder: ScratchFolder) async throws -> (arguments: [String], token: String) {
        let secret = folder.path("secret.key")
        try Data(String(repeating: "q", count: 32).utf8).write(to: URL(fileURLWithPath: secret))
        let minted = try await FeedProcess.run(["token", "--jwt-secret-file", secret, "--user", "schemathesis", "--scope", "admin", "--ttl", "2h"])
        // Its ignored_auth check sends hundreds of wrong tokens a second from one address, on
        // purpose: the limit on refused credentials (ServeAccessTests) would answer them 429.
        return (["--jwt-secret-file", secret, "--refusal-rate", "0"], minted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("SQLite: no failure, no error")
    func sqlite() async throws {
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1), b = try home.clip("b.mp4", seed: 2)
        #expect(try await home.run(["roll", "add", a, b]).status == 0)
        let (arguments, token) = try await Self.keyed(home.folder)
        let server = try await ServeProcess(["--quiet"] + arguments, home: home)
        let run = try await Schemathesis.run(against: server.base, token: token)
        #expect(run.status == 0, "\(run.stdout.suffix(6000))")
        await server.stop()
    }

    @Test("PostgreSQL: no failure, no error", .enabled(if: TestPostgres.url != nil))
    func postgres() async throws {
        let shared = try await SharedCatalog()
        let a = try TestMedia.seededClip(shared.folder.path("a.mp4"), seed: 1)
        let b = try TestMedia.seededClip(shared.folder.path("b.mp4"), seed: 2)
        #expect(try await shared.running(["roll", "add", a, b]).status == 0)
        let (arguments, token) = try await Self.keyed(shared.folder)
        let server = try await ServeProcess(["--quiet"] + arguments, environment: shared.environment)
        let run = try await Schemathesis.run(against: server.base, token: token)
        #expect(run.status == 0, "\(run.stdout.suffix(6000))")
        await server.stop()
    }
}
