import ArgumentParser
import FeedRemote
import Foundation

/// `feed cache list`: the cached clips and the cache's size.
struct CacheListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the cached clips, most recently used first, and the total size.",
        discussion: """
            The table has one row per clip (URL, bytes, last used; "partial" for a download \
            that stopped and will be resumed) and a total line. --json prints one object: \
            {"folder", "bytes", "limit", "entries": [{"url", "bytes", "last_used", "complete"}]}. \
            A cache that does not exist yet lists as empty.

            EXAMPLES:
              feed cache list
              feed cache list --json | jq .bytes
            """
    )

    @OptionGroup var options: CacheOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let cache = options.cache
        let entries = cache.entries()
        let total = cache.totalBytes
        if json {
            try StandardStream.output.write(CacheListing.json(entries, folder: cache.folder.path, bytes: total, limit: cache.limit))
        } else {
            let table = CacheListing.table(entries)
            try StandardStream.output.write(table.render(width: Terminal.width(), style: Style(enabled: Terminal.usesColor(.output))))
            try StandardStream.output.write(CacheListing.total(entries.count, bytes: total, limit: cache.limit, folder: cache.folder.path))
        }
    }
}
