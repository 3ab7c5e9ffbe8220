import ArgumentParser
import Foundation

extension FeedCommand {
    /// Parses the command line, runs the chosen subcommand and ends the process with the
    /// status `FailureReport` gives any error, so every command can simply throw.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let report = FailureReport(error: error, root: FeedCommand.self)
            report.emit()
            Foundation.exit(report.status)
        }
    }
}
