import ArgumentParser
import FeedCore
import FeedRecs

/// `feed recs train`: trains the For You model now, in this process, and stores it.
struct RecsTrainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the For You model from the catalog's events now.",
        discussion: """
            Reads the events of the last 90 days, trains (item-to-item co-watching, each video's \
            quality, trending, each hashtag's best) on every core, and stores the model as the \
            catalog's next version: every feed serve on this catalog serves it from its next page. \
            feed serve does the same every --recs-train-interval seconds as a recs.train job.

            EXAMPLES:
              feed recs train
              feed recs train --json | jq .version
            """
    )

    @OptionGroup var store: CatalogOptions
    @Flag(help: "One JSON object: version, trained_at, events, viewers, videos, seconds, bytes.") var json = false

    func run() async throws {
        try await store.withRoll { roll in
            let recsStore = try roll.recsStore()
            let pool = BlockingPool(name: "feed.recs", threads: 1)
            defer { pool.shutdown() }
            let info = try await withTaskExecutorPreference(pool) { () async throws(RecsError) -> ModelInfo in
                try await Recs(store: recsStore).train()
            }
            try ModelInfoRecord(info).print(json: json)
        }
    }
}
