import ArgumentParser
import FeedCore
import Foundation

/// `feed validate FILE…`: every problem of every file (or URL), for people or (with --json) machines.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check feed files and print every problem in them.",
        discussion: """
            Prints one line per problem, FILE:LINE:COL: JSON.PATH: message (warnings such as \
            duplicate ids are marked 'warning:'), and a summary on standard error. Every file \
            is checked even when an earlier one is broken or missing. Exits 65 if any file has \
            an error, 66 if a file is missing; warnings alone exit 0. With no FILE and no --feed \
            it checks $FEED_PATH, as every command reads it.

            A clip or thumbnail may be an absolute URL (https://…, file:///…), an absolute \
            path, or a path relative to the feed file's folder. --urls is for apps that need \
            URLs: every path is then an error.

            A FILE (or --feed) that is an http(s) URL is fetched, with --allow-network only \
            (without it: exit 64): at most 5 redirects, 1 GiB, 30 s; HTTP 404 or 410 exits 66, \
            other failures 74.

            --json prints one array: [{"file", "ok", "error", "problems": [{"line", "column", \
            "path", "message", "severity"}]}], where "error" says why a file could not be read.

            EXAMPLES:
              feed validate videos.json comments.json
              feed validate feeds/*.json --json | jq '.[] | select(.ok | not) | .file'
              cat videos.json | feed validate -
              feed validate --urls app-feed.json
              feed validate --feed https://example.com/videos.json --allow-network
            """
    )

    @Argument(help: ArgumentHelp("The feed files (or http(s) URLs) to check; '-' reads standard input.", valueName: "file"))
    var arguments: [String] = []

    @Option(name: .long, help: ArgumentHelp("A feed to check, as FILE (repeatable; as --feed in the other commands).", valueName: "path"))
    var feed: [String] = []

    @Flag(help: "Allow fetching feeds that are http(s) URLs.")
    var allowNetwork = false

    /// The files and URLs to check: the arguments, then the --feed ones; with neither, a
    /// non-empty `$FEED_PATH` (what every other command would read).
    var files: [String] {
        let given = arguments + feed
        if given.isEmpty, let environment = ProcessInfo.processInfo.environment["FEED_PATH"], !environment.isEmpty {
            return [environment]
        }
        return given
    }

    @Option(help: "Check every file as this format instead of detecting it.")
    var format: FeedFormat?

    @Flag(help: "Require absolute URLs for clips and thumbnails: a file path is an error.")
    var urls = false

    @Flag(help: "Print one JSON array with every file's result.")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one feed file or URL to check (or set FEED_PATH)") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input ('-') can be read only once") }
    }

    func run() async throws {
        var results: [ValidationResult] = []
        for file in files {
            results.append(await ValidationResult.check(file, format: format, allowingPaths: !urls, allowNetwork: allowNetwork))
        }
        let style = Style(enabled: Terminal.usesColor(.output))
        if json {
            try StandardStream.output.write(ValidationReport.json(results))
        } else {
            let lines = results.flatMap(\.problems).map { ProblemLine.text($0, style: style) + "\n" }
            try StandardStream.output.write(lines.joined())
        }
        let errorStyle = Style(enabled: Terminal.usesColor(.error))
        var diagnostics = results.compactMap(\.failure).map { "feed: \(FailureMessage.text($0))\n" }.joined()
        diagnostics += ValidationReport.summary(results, style: errorStyle) + "\n"
        try StandardStream.error.write(diagnostics)
        let status = ValidationResult.exitStatus(results)
        if status != .ok {
            throw ExitCode(status.rawValue)
        }
    }
}
