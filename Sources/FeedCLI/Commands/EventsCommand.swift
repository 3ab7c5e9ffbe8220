import ArgumentParser

/// `feed events`: the catalog's For You events.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "For You's events: import a file of them into the catalog.",
        discussion: """
            Events are what apps send to POST /events as viewers swipe (impression, watch, \
            complete, replay, skip, like, share, bookmark, comment, follow, not_interested, \
            hide_creator). For tests and migrations, feed events import stores a file of them.

            EXAMPLES:
              feed events import events.ndjson
            """,
        subcommands: [EventsImportCommand.self]
    )
}
