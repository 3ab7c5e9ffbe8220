import ArgumentParser
import FeedCore
import FeedRecs
import Foundation

/// `feed events import FILE.ndjson`: stores a file of events, each naming its user or device.
struct EventsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Store an NDJSON file of events in the catalog.",
        discussion: """
            One event a line, as POST /events takes them, plus the viewer: "user" (a name) or \
            "device". Every line is checked before any is stored; then they go in batches of \
            1,000, each one transaction, so an import stopped partway keeps whole batches, and \
            running it again adds nothing twice (an event's sender and id are its key). Each new \
            watch of a post counts in its views. Prints how many were stored and how many were \
            there already. A file that cannot be read exits 66; a wrong line exits 65, naming it.

            EXAMPLES:
              feed events import events.ndjson
              feed events import events.ndjson --json | jq .accepted
            """
    )

    @OptionGroup var store: CatalogOptions
    @Argument(help: ArgumentHelp("The NDJSON file.", valueName: "file")) var file: String
    @Flag(help: "One JSON object: accepted, duplicates, plays.") var json = false

    func run() async throws {
        let events = try EventsFile.read(file)
        try await store.withRoll { roll in
            let recsStore = try roll.recsStore()
            var total = EventOutcome()
            // In file order, one batch per sender at a time.
            var start = 0
            while start < events.count {
                let sender = EventsFile.sender(events[start])
                var end = start
                while end < events.count, end - start < EventBatch.maxEvents, EventsFile.sender(events[end]) == sender { end += 1 }
                let outcome = try await recsStore.record(Array(events[start..<end]), sender: sender, now: Date().timeIntervalSince1970)
                total.accepted += outcome.accepted
                total.duplicates += outcome.duplicates
                total.plays += outcome.plays
                start = end
            }
            if json {
                try StandardStream.output.write(Array(#"{"accepted":\#(total.accepted),"duplicates":\#(total.duplicates),"plays":\#(total.plays)}"#.utf8) + [0x0A])
            } else {
                try StandardStream.output.write(Array("stored \(total.accepted) events (\(total.duplicates) there already), \(total.plays) play\(total.plays == 1 ? "" : "s") counted\n".utf8))
            }
        }
    }
}
