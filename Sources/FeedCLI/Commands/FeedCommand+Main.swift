import ArgumentParser
import FeedCore
import Foundation

extension FeedCommand {
    /// Parses the command line, runs the chosen subcommand and ends the process with the
    /// status `FailureReport` gives any error, so every command can simply throw.
    static func main() async {
        let status = await runReportingFailure()
        if let status { Foundation.exit(status) }
    }

    /// Runs the chosen subcommand; on failure prints the report and returns its exit status.
    private static func runReportingFailure() async -> Int32? {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            try refuseDashWords(arguments)
            try refuseUnknownHelpTopic(arguments)
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return nil
        } catch {
            let report = FailureReport(error: error, root: FeedCommand.self)
            report.emit()
            return report.status
        }
    }

    /// feed's only short options are `-h` and `-o`, so a longer word with one leading dash
    /// (`-dash.mp4`) is a file name, not a cluster of flags. ArgumentParser would read it as
    /// `-d -a -s -h` and print the help with status 0; refuse it as a usage error that says
    /// how to pass such a name. Numbers (`--offset -0.5`) and anything after `--` pass.
    static func refuseDashWords(_ arguments: [String]) throws(CommandFailure) {
        for argument in arguments {
            if argument == "--" { return }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2,
                  !argument.hasPrefix("-o"), Double(argument) == nil else { continue }
            throw CommandFailure(description: "\(argument): not an option; to name a file that starts with '-', write ./\(argument) (or put it after '--')",
                                 kind: .usage)
        }
    }

    /// `feed help WORD…` names a subcommand; ArgumentParser prints the root help with status 0
    /// for a word it does not know, which a script would take for success. Refuse it as a usage
    /// error naming the word, as `git help` and `swift help` do.
    static func refuseUnknownHelpTopic(_ arguments: [String]) throws(CommandFailure) {
        // `feed help help` is ArgumentParser's own help command, which is no subcommand of feed's.
        guard arguments.first == "help", arguments.dropFirst().first != "help" else { return }
        var command: ParsableCommand.Type = FeedCommand.self
        var path = ["feed"]
        for word in arguments.dropFirst() where !word.hasPrefix("-") {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == word }) else {
                throw CommandFailure(description: "\(word): no such command in '\(path.joined(separator: " "))'; see '\(path.joined(separator: " ")) --help'",
                                     kind: .usage)
            }
            command = next
            path.append(word)
        }
    }
}
