import ArgumentParser
import FeedRemote
import Foundation

/// `--cache-dir` and `--cache-size`: where `feed play` keeps remote clips, and how much.
struct CacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The clip cache folder. (default: $FEED_HOME/cache/clips, else $XDG_CACHE_HOME/feed/clips, else ~/.cache/feed/clips)",
                               valueName: "folder"))
    var cacheDir: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The most the clip cache keeps: bytes, or with K, M, G (least recently used clips go first).",
                               valueName: "size"))
    var cacheSize = ByteSize(bytes: ClipCache.defaultLimit)

    /// The cache these options name.
    var cache: ClipCache {
        ClipCache(folder: cacheDir.map { URL(fileURLWithPath: $0) } ?? ClipCache.defaultFolder(), limit: cacheSize.bytes)
    }
}
