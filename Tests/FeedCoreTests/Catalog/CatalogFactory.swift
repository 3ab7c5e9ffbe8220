import Foundation
import FeedPostgres
import FeedSQLite
import FeedTestSupport
@testable import FeedCore

/// One implementation of the catalog seam under test: makes a fresh, empty, migrated catalog
/// in a scratch folder. `RecordingCatalogTests` and `MarkStoreTests` run once per entry of
/// ``all``, so a second implementation (PostgreSQL) joins the same suite by adding one here.
struct CatalogFactory: Sendable, CustomStringConvertible {
    var name: String
    /// Two handles on one fresh store, as two processes (or machines) would open it, on `clock`
    /// (nil: the real one; PostgreSQL's is the database's).
    var makeClockedPair: @Sendable (ScratchFolder, ManualWallClock?) async throws -> (Catalog, Catalog)

    var description: String { name }

    init(name: String, makeClockedPair: @escaping @Sendable (ScratchFolder, ManualWallClock?) async throws -> (Catalog, Catalog)) {
        self.name = name
        self.makeClockedPair = makeClockedPair
    }

    /// Two handles on one fresh store, on the real clock.
    func makePair(_ folder: ScratchFolder) async throws -> (Catalog, Catalog) { try await makeClockedPair(folder, nil) }

    /// One handle on a fresh store; with `clock`, every lease, backoff and expiry follows it.
    func make(_ folder: ScratchFolder, clock: ManualWallClock? = nil) async throws -> any Catalog {
        try await makeClockedPair(folder, clock).0
    }

    static let sqlite = CatalogFactory(name: "SQLite") { folder, clock in
        let open = { @Sendable () async throws -> SQLiteCatalog in
            let catalog = try SQLiteCatalog(path: folder.url("catalog.sqlite").path, setupLock: folder.url("setup.lock"),
                                            clock: clock ?? SystemWallClock())
            try await catalog.migrate()
            return catalog
        }
        return (try await open(), try await open())
    }

    /// A fresh database of the throwaway cluster `make test` starts (see ``TestPostgres``).
    static let postgres = CatalogFactory(name: "PostgreSQL") { _, clock in
        let url = try await TestPostgres.newDatabase()
        return (try await PostgresCatalog.open(url, maximumConnections: 4, clock: clock),
                try await PostgresCatalog.open(url, maximumConnections: 4, clock: clock))
    }

    /// SQLite always; PostgreSQL when a test cluster runs.
    static let all: [CatalogFactory] = TestPostgres.url == nil ? [.sqlite] : [.sqlite, .postgres]

    /// A recording whose fields all differ from the defaults, for round trips.
    static func recording(_ n: Int, createdAt: Double? = nil, sha256: String? = nil) -> Recording {
        Recording(fileName: "clip-\(n).mp4", originalPath: "/in/clip \(n).mov",
                  createdAt: Date(timeIntervalSince1970: createdAt ?? 1_800_000_000 + Double(n) + 0.125),
                  media: RecordingMedia(duration: 1.5 + Double(n), width: 720, height: 1280, fps: 29.97, videoCodec: "hevc", hasAudio: n % 2 == 0),
                  bytes: 1000 + Int64(n), sha256: sha256 ?? String(format: "%064x", n),
                  sources: n % 2 == 0 ? ["/in/front.mov", "/in/back.mp4"] : nil,
                  stackOptions: n % 2 == 0 ? #"{"layout":"vstack"}"# : nil, title: n % 3 == 0 ? "take \(n) ✓" : nil)
    }
}
