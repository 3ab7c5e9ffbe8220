import ArgumentParser
import FeedCore
import FeedPostgres
import FeedSQLite
import Foundation

/// `--catalog URL` and `--media DIR`: where the roll's rows and files are, for the commands that
/// several machines can share (serve, worker, jobs, roll, like, bookmark …).
struct CatalogOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        The catalog: a postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE URL (or …@/DATABASE?host=SOCKET_DIR) \
        shared by several machines; default $FEED_CATALOG, else the roll's own SQLite file.
        """, valueName: "url"))
    var catalog: String?

    @Option(help: ArgumentHelp("""
        With a PostgreSQL catalog: the folder (holding recordings/) that every node reads and writes; \
        default $FEED_MEDIA, else the roll's folder.
        """, valueName: "dir"))
    var media: String?

    /// The catalog URL given or from the environment; nil for the roll's SQLite file.
    func catalogURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        Self.catalogURL(catalog, environment)
    }

    private static func catalogURL(_ given: String?, _ environment: [String: String]) -> String? {
        (given ?? environment["FEED_CATALOG"]).flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        if let url = catalogURL(), !PostgresLocation.isURL(url) {
            // Named as it was given: the option, or the environment; never its password.
            let source = catalog.map { _ in "--catalog" } ?? "FEED_CATALOG"
            throw ValidationError("\(source) must be a postgres:// URL, not \(PostgresLocation.redacted(url)) (the SQLite catalog is the roll's own file: set FEED_HOME)")
        }
        if media != nil && catalogURL() == nil {
            throw ValidationError("--media needs a PostgreSQL --catalog (with SQLite, the roll's folder holds both: set FEED_HOME)")
        }
        if let media, media.isEmpty { throw ValidationError("--media cannot be empty") }
    }

    /// Runs `body` with the roll open: the SQLite one of this environment (opened with
    /// `access`), or the PostgreSQL catalog over the media folder, with a pool of at most
    /// `connections`, whose client runs for exactly the body's duration.
    func withRoll<T>(_ access: Roll.Access = .readWrite, connections: Int = 4, _ body: (Roll) async throws -> T) async throws -> T {
        try await Self.withRoll(catalog: catalog, media: media, access: access, connections: connections, body)
    }

    /// ``withRoll(_:connections:_:)`` for `catalog` and `media` as given on a command line (nil:
    /// from the environment, `FEED_CATALOG` and `FEED_MEDIA`; else the SQLite roll of `FEED_HOME`).
    static func withRoll<T>(catalog: String?, media: String?, access: Roll.Access = .readWrite, connections: Int = 4,
                            _ body: (Roll) async throws -> T) async throws -> T {
        let environment = ProcessInfo.processInfo.environment
        guard let url = catalogURL(catalog, environment) else {
            return try await body(try Roll(paths: .fromEnvironment(environment), prober: MediaRecordingProber(), access: access))
        }
        guard PostgresLocation.isURL(url) else {
            throw CommandFailure(description: "FEED_CATALOG must be a postgres:// URL, not \(PostgresLocation.redacted(url))", kind: .usage)
        }
        let home = (media ?? environment["FEED_MEDIA"]).flatMap { $0.isEmpty ? nil : $0 }
        let paths = home.map { RollPaths(home: URL(fileURLWithPath: $0, isDirectory: true)) } ?? .fromEnvironment(environment)
        return try await PostgresCatalog.withOpen(url, maximumConnections: connections) { catalog in
            try await body(try Roll(paths: paths, catalog: catalog, prober: MediaRecordingProber()))
        }
    }

    /// The marks in the feed `feed` (its ``Feed/key``) of this environment's roll: PostgreSQL's
    /// when `$FEED_CATALOG` names one, else the SQLite roll's, without creating it (`feed
    /// list`'s ♥ column and `--liked`).
    static func existingMarks(feed: String) async throws -> [String: Set<VideoMark>] {
        guard catalogURL(nil, ProcessInfo.processInfo.environment) != nil else { return try await Roll.existingMarks(feed: feed) }
        return try await withRoll(catalog: nil, media: nil, access: .readOnly) { try await $0.marks(feed: feed) }
    }

    /// The comments posted over HTTP to this environment's roll (see ``existingMarks(feed:)``).
    static func existingComments() async throws -> [(number: Int64, username: String, text: String)] {
        guard catalogURL(nil, ProcessInfo.processInfo.environment) != nil else { return try await Roll.existingComments() }
        return try await withRoll(catalog: nil, media: nil, access: .readOnly) { try await $0.catalog.storedComments() }
    }
}
