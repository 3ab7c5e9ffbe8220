import Testing

/// How the command line's words are read before any command runs: negative numbers given as
/// their own word, and `feed help WORD`.
@Suite("Command-line words")
struct CommandLineWordsTests {
    /// A negative number as the word after a numeric option, and what the error must say.
    static let negatives: [(arguments: [String], message: String)] = [
        (["list", "--limit", "-1"], "feed: --limit must be 0 or more, not -1"),
        (["serve", "--port", "-5"], "feed: --port must be 0…65535, not -5"),
        (["stack", "a.mp4", "b.mp4", "-o", "x.mp4", "--crf", "-4"], "feed: --crf must be 0…51, not -4"),
        (["worker", "--concurrency", "-2"], "feed: --concurrency"),
        (["storyboard", "a.mp4", "-o", "board", "--tiles", "-3"], "feed: --tiles"),
        (["push", "--chunk-size", "-5", "a.mp4"], "feed: The value '-5' is invalid for '--chunk-size <size>'"),
    ]

    @Test("a negative number after a numeric option gets that option's range check (64), not \"Missing value\"",
          arguments: negatives.indices)
    func negativeNumberIsTheValue(index: Int) async throws {
        let (arguments, message) = Self.negatives[index]
        let run = try await FeedProcess.run(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
        #expect(!run.stderr.contains("Missing value"))
    }

    /// Numbers at the ends of what a Double holds, each of which once stopped the process (a
    /// conversion or a sum past Int's range) or hung it; and what the refusal says.
    static let extremes: [(arguments: [String], message: String)] = [
        (["serve", "--rate", "1e300"], "feed: --rate must be 0.001…1000000 requests a second, not 1e+300"),
        (["serve", "--rate", "1e-300"], "feed: --rate must be 0.001…1000000"),
        (["serve", "--webhook-retry", "1e-300"], "feed: --webhook-retry must be 0.1…3600 seconds"),
        (["roll", "sheet", "-o", "s.png", "--columns", "9223372036854775807"], "feed: --columns must be 1…100, not 9223372036854775807"),
        (["play", "--headless", "--measure-render", "1", "--terminal", "2x9223372036854775807"], "feed: --terminal must look like 200x60 (1…10000 each)"),
        (["comments", "--follow", "--interval", "1e300", "--count", "2"], "feed: --interval must be 0.001…86400 seconds"),
        (["hls", "a.mp4", "-o", "out", "--gop", "1e-300"], "feed: --gop must be 0.1 s or more"),
        (["stack", "a.mp4", "b.mp4", "-o", "x.mp4", "--fps", "1e-300"], "feed: --fps must be 1…240"),
    ]

    @Test("numbers at a Double's ends are refused by the option's range (64), never a crash or a hang", arguments: extremes.indices)
    func extremeNumbers(index: Int) async throws {
        let (arguments, message) = Self.extremes[index]
        let run = try await FeedProcess.run(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
    }

    @Test("an option given no value at all still says so")
    func missingValue() async throws {
        let run = try await FeedProcess.run(["list", "--limit"])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("feed: Missing value for '--limit <n>'"))
    }

    @Test("`feed help WORD` for a word that is no command is a usage error naming it; a real one prints its help")
    func helpTopics() async throws {
        let bogus = try await FeedProcess.run(["help", "bogus"])
        #expect(bogus.status == 64 && bogus.stdout.isEmpty)
        #expect(bogus.stderr == "feed: bogus: no such command in 'feed'; see 'feed --help'\n")

        let nested = try await FeedProcess.run(["help", "roll", "tumb"])
        #expect(nested.status == 64 && nested.stderr.contains("tumb: no such command in 'feed roll'"))

        let thumb = try await FeedProcess.run(["help", "roll", "thumb"])
        #expect(thumb.status == 0 && thumb.stdout.hasPrefix("OVERVIEW: Make a JPEG poster frame"))
        let help = try await FeedProcess.run(["help", "help"])
        #expect(help.status == 0 && help.stdout.contains("OVERVIEW: Show subcommand help information."))
        let root = try await FeedProcess.run(["help"])
        #expect(root.status == 0 && root.stdout.contains("SUBCOMMANDS:"))
    }
}
