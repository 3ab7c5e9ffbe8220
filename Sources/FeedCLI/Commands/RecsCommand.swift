import ArgumentParser

/// `feed recs`: For You on the catalog. With no subcommand it shows a page (`feed recs show`).
struct RecsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recs",
        abstract: "For You: a viewer's next page, training the model, an offline evaluation.",
        discussion: """
            For You ranks the catalog's posts for one viewer from the events apps send (POST /events, \
            or feed events import): watch time and completion first, then shares, likes and follows, \
            by item-to-item co-watching joined with follows, hashtags and freshness; 20 % of each \
            page explores (new posts until their first 200 plays, then random ones). feed serve trains \
            every --recs-train-interval seconds as a recs.train job; feed recs train does it now.

            EXAMPLES:
              feed recs --user alice
              feed recs --device phone-1 --limit 5 --json | jq -r '.videos[].reason'
              feed recs train
              feed recs evaluate --events events.ndjson --holdout 0.2
            """,
        subcommands: [RecsShowCommand.self, RecsTrainCommand.self, RecsEvaluateCommand.self],
        defaultSubcommand: RecsShowCommand.self
    )
}
