import ArgumentParser
import FeedCore

/// How far and how strictly `feed sync` and `feed stack --sync audio` search.
struct SyncSearchOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Search offsets from -SECONDS to SECONDS (0.2…60).", valueName: "seconds"))
    var maxOffset: Double = 10
    @Option(parsing: .unconditional, help: ArgumentHelp("Refuse a match less than this many times stronger than the runner-up.", valueName: "ratio"))
    var minConfidence: Double = SyncOptions.defaultMinConfidence

    /// The options for `AudioSync`, checked.
    func options() throws(SyncError) -> SyncOptions {
        var options = SyncOptions()
        options.maxOffset = maxOffset
        options.minConfidence = minConfidence
        try options.validate()
        return options
    }
}
