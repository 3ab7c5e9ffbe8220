import ArgumentParser
import FeedCore
import FeedRecs
import Foundation

/// `feed recs evaluate --events FILE`: the offline replay (``RecsEvaluator``).
struct RecsEvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Replay an events file offline: the model against popularity on held-out events.",
        discussion: """
            Holds out each viewer's latest events (--holdout of them), trains on the rest as feed \
            recs train does, ranks each viewer's top --k and prints recall@K, NDCG@K and the share \
            of the held-out watch time the top K hold, for the model and for popularity (the most \
            wanted videos of the training split) on the same split. The file is NDJSON as feed \
            events import reads it: each event names its user (or device). No catalog is read. A \
            file that cannot be read exits 66; a wrong line exits 65, naming it.

            EXAMPLES:
              feed recs evaluate --events events.ndjson
              feed recs evaluate --events events.ndjson --holdout 0.3 --json
            """
    )

    @Option(help: ArgumentHelp("The NDJSON events file.", valueName: "file")) var events: String
    @Option(help: ArgumentHelp("The share of each viewer's events held out (0 < h < 1).", valueName: "h")) var holdout = 0.2
    @Option(help: ArgumentHelp("The page length the metrics are at.", valueName: "k")) var k = 20
    @Flag(help: "One JSON object.") var json = false

    func run() async throws {
        let evaluator = try RecsEvaluator(holdout: holdout, k: k)
        let list = try EventsFile.read(events).map { event in
            StoredEvent(event, actor: event.user.map(EventActor.user) ?? .device(event.device ?? ""), now: 0)
        }
        let pool = BlockingPool(name: "feed.recs", threads: 1)
        defer { pool.shutdown() }
        let report = await pool.run { evaluator.evaluate(list) }
        try EvaluationOutput(report: report).print(json: json)
    }
}
