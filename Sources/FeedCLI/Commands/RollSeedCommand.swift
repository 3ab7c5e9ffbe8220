import ArgumentParser
import FeedCore

/// `feed roll _seed N`: benchmark support, hidden from help. Inserts N synthetic rows in one
/// transaction; their files do not exist.
struct RollSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "_seed",
        abstract: "Insert synthetic rows for benchmarks.",
        shouldDisplay: false
    )

    @OptionGroup var store: CatalogOptions

    @Argument var count: Int

    func run() async throws {
        let total = try await RollCommand.withRoll(store: store) { try await $0.seed(count: count) }
        try StandardStream.output.write("\(total)\n")
    }
}
