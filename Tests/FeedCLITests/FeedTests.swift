@testable import FeedCLI
import FeedCore
import Foundation
import Testing
import FeedTestSupport

@Suite("feed (root command and errors)")
struct FeedTests {
    @Test func helpShowsExamplesAndTheExitStatusTable() async throws {
        let run = try await FeedProcess.run(["--help"])

        #expect(run.status == 0)
        #expect(run.stdout.contains("EXAMPLES:"))
        #expect(run.stdout.contains("EXIT STATUS:"))
        for status in ExitStatus.allCases {
            #expect(run.lines.contains { $0.hasPrefix("  \(status.rawValue) ") }, "no line for \(status)")
        }
        for subcommand in ["list", "show", "comments", "validate"] {
            #expect(run.stdout.contains("  \(subcommand) "))
        }
    }

    @Test(arguments: ["list", "show", "comments", "validate"])
    func everySubcommandHelpHasExamples(subcommand: String) async throws {
        let run = try await FeedProcess.run([subcommand, "--help"])

        #expect(run.status == 0)
        #expect(run.stdout.contains("EXAMPLES:"))
        #expect(run.stdout.contains("feed \(subcommand)"))
    }

    @Test func versionPrintsOneLine() async throws {
        let run = try await FeedProcess.run(["--version"])

        #expect(run.status == 0)
        #expect(run.lines.count == 1)
        #expect(run.stdout.first?.isNumber == true)
    }

    @Test func missingFeedFileExitsSixtySix() async throws {
        let path = try ScratchFolder().url.appendingPathComponent("missing.json").path

        let run = try await FeedProcess.run(["list", "--feed", path])

        #expect(run.status == 66)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("feed: ") && run.stderr.contains(path))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func notJSONExitsSixtyFiveWithALocation() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("notes.json", "hello, world\n")

        let run = try await FeedProcess.run(["list", "--feed", path])

        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("feed: \(path):1:1: "))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func unknownOptionIsAUsageErrorWithUsage() async throws {
        let run = try await FeedProcess.run(["list", "--bogus"])

        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("feed: Unknown option '--bogus'"))
        #expect(run.stderr.contains("Usage: feed list"))
    }

    @Test func unknownSortIsAUsageError() async throws {
        let run = try await FeedProcess.run(["list", "--sort", "colour"])

        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("feed: "))
    }

    @Test func formatWithoutAFeedIsAUsageError() async throws {
        let run = try await FeedProcess.run(["list", "--format", "pexels"])

        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("feed: --format needs a feed"))
    }

    @Test func forcedFormatThatDoesNotMatchIsBadData() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("videos.json", Fixture.videos)

        let run = try await FeedProcess.run(["list", "--feed", path, "--format", "feedsapp"])

        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("feed: \(path):"))
    }
}
