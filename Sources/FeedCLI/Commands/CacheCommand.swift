import ArgumentParser

/// `feed cache`: the clip cache of `feed play`. With no subcommand it lists (as `feed cache list`).
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "List or clear the cache of remote clips that feed play keeps.",
        discussion: """
            `feed play` of a feed whose clips are http(s) URLs downloads each clip once into \
            the cache ($FEED_HOME/cache/clips, else $XDG_CACHE_HOME/feed/clips, else ~/.cache/feed/clips; --cache-dir), so \
            swiping back, or playing the feed again, shows it from the disk. The cache keeps at \
            most --cache-size (default 1G) and drops the least recently used clips first.

            EXAMPLES:
              feed cache                 # its clips, newest first, and the total
              feed cache --json | jq .bytes
              feed cache clear
            """,
        subcommands: [CacheListCommand.self, CacheClearCommand.self],
        defaultSubcommand: CacheListCommand.self
    )
}
