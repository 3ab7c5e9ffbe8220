import ArgumentParser

/// `feed remote`: the local commands, run against a `feed serve` over HTTP.
struct RemoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Run stack, list, roll, jobs, live and publish on a feed serve over HTTP.",
        discussion: """
            Each subcommand prints what its local counterpart prints (the same table, --json and \
            exit statuses), from the server given by --server (or $FEED_SERVER), with --token (or \
            $FEED_TOKEN) when the server has one. 'feed remote stack' uploads the clips with \
            'feed push', has the server stack them, and downloads the result.

            EXAMPLES:
              feed remote roll --server http://127.0.0.1:8080
              export FEED_SERVER=http://127.0.0.1:8080
              feed remote list --sort likes --limit 3
              feed remote jobs --state failed
              feed remote stack front.mp4 back.mp4 -o out.mp4
            """,
        subcommands: [RemoteStackCommand.self, RemoteListCommand.self, RemoteRollCommand.self, RemoteJobsCommand.self, RemoteLiveCommand.self,
                      RemotePublishCommand.self, RemoteUnpublishCommand.self]
    )
}
