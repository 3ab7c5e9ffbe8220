import ArgumentParser
import FeedCore
import FeedPostgres
import FeedRemote
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
        Where recordings and what is made from them are kept: s3://BUCKET[/PREFIX] on an S3-compatible store \
        (keys and endpoint from $AWS_ACCESS_KEY_ID, $AWS_SECRET_ACCESS_KEY, $AWS_ENDPOINT_URL, $AWS_REGION), or, \
        with a PostgreSQL catalog, the folder (holding recordings/) every node reads and writes; default $FEED_MEDIA, \
        else the roll's folder.
        """, valueName: "dir|s3-url"))
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
        if let media, media.hasPrefix("s3://") {
            guard S3Location(media) != nil else {
                throw ValidationError("--media \(media): not a bucket S3 takes (s3://BUCKET[/PREFIX], the bucket 3-63 of a-z 0-9 . -)")
            }
        } else if media != nil && catalogURL() == nil {
            throw ValidationError("--media needs a PostgreSQL --catalog or an s3:// URL (with SQLite, the roll's folder holds both: set FEED_HOME)")
        }
        if let media, media.isEmpty { throw ValidationError("--media cannot be empty") }
    }

    /// Runs `body` with the roll open: the SQLite one of this environment (opened with
    /// `access`), or the PostgreSQL catalog over the media folder, with a pool of at most
    /// `connections`, whose client runs for exactly the body's duration.
    func withRoll<T>(_ access: Roll.Access = .readWrite, connections: Int = 4, serving: S3Serving = .redirect,
                     _ body: (Roll) async throws -> T) async throws -> T {
        try await Self.withRoll(catalog: catalog, media: media, access: access, connections: connections, serving: serving, body)
    }

    /// ``withRoll(_:connections:_:)`` for `catalog` and `media` as given on a command line (nil:
    /// from the environment, `FEED_CATALOG` and `FEED_MEDIA`; else the SQLite roll of `FEED_HOME`).
    static func withRoll<T>(catalog: String?, media: String?, access: Roll.Access = .readWrite, connections: Int = 4,
                            serving: S3Serving = .redirect, _ body: (Roll) async throws -> T) async throws -> T {
        let environment = ProcessInfo.processInfo.environment
        let home = (media ?? environment["FEED_MEDIA"]).flatMap { $0.isEmpty ? nil : $0 }
        let store = try home.flatMap { text in
            try objectStore(text, given: media != nil, paths: .fromEnvironment(environment), serving: serving, environment)
        }
        defer { store?.shutdown() }
        guard let url = catalogURL(catalog, environment) else {
            return try await body(try Roll(paths: .fromEnvironment(environment), media: store, prober: MediaRecordingProber(), access: access))
        }
        guard PostgresLocation.isURL(url) else {
            throw CommandFailure(description: "FEED_CATALOG must be a postgres:// URL, not \(PostgresLocation.redacted(url))", kind: .usage)
        }
        let paths = store == nil ? home.map { RollPaths(home: URL(fileURLWithPath: $0, isDirectory: true)) } ?? .fromEnvironment(environment)
            : .fromEnvironment(environment)
        return try await PostgresCatalog.withOpen(url, maximumConnections: connections) { catalog in
            try await body(try Roll(paths: paths, catalog: catalog, media: store, prober: MediaRecordingProber()))
        }
    }

    /// The object store `text` names when it is an `s3://` URL (nil for a folder), configured
    /// from the standard variables, its local copies under the roll's folder (`paths`).
    static func objectStore(_ text: String, given: Bool, paths: RollPaths, serving: S3Serving = .redirect,
                            _ environment: [String: String]) throws -> S3MediaStore? {
        guard text.hasPrefix("s3://") else { return nil }
        guard let location = S3Location(text) else {
            throw CommandFailure(description: "\(given ? "--media" : "FEED_MEDIA") \(text): not a bucket S3 takes (s3://BUCKET[/PREFIX], the bucket 3-63 of a-z 0-9 . -)", kind: .usage)
        }
        let configuration = try S3Configuration(environment: environment)
        return S3MediaStore(location: location, client: S3Client(configuration: configuration, bucket: location.bucket),
                            cache: paths.home.appendingPathComponent("media-cache", isDirectory: true), serving: serving)
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
