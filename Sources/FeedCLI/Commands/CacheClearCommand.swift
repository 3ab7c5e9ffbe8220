import ArgumentParser
import FeedRemote

/// `feed cache clear`: empties the clip cache.
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every cached clip and partial download.",
        discussion: """
            Clips that another `feed play` is downloading right now are left alone. Prints what \
            was freed. An empty or missing cache is not an error (exit 0).

            EXAMPLES:
              feed cache clear
              feed cache clear --cache-dir /tmp/feed-clips
            """
    )

    @OptionGroup var options: CacheOptions

    func run() async throws {
        let cache = options.cache
        let freed = try cache.clear()
        try StandardStream.output.write("freed \(CacheListing.size(freed)) from \(cache.folder.path)\n")
    }
}
