import FeedCore
import FeedPostgres

/// The PostgreSQL catalogs this process opened, closed once before it exits (by
/// `FeedCommand.main`, on success and on failure): their pooled connections end cleanly
/// instead of being cut by the exit.
enum OpenCatalogs {
    private static let open = Locked<[PostgresCatalog]>([])

    /// Remembers `catalog` for ``closeAll()``.
    static func register(_ catalog: PostgresCatalog) {
        open.withLock { $0.append(catalog) }
    }

    /// Closes every catalog still open.
    static func closeAll() async {
        let all = open.withLock { all in defer { all = [] }; return all }
        for catalog in all { await catalog.close() }
    }
}
