import FeedTestSupport
import Foundation
import Testing

/// Every command's `--help` has EXAMPLES, and each is one line that pastes: within 80 columns
/// (where the help is wrapped when piped), valid shell; at least one runs `feed` (the others may
/// show a companion: curl or ffprobe on what `feed serve` serves).
@Suite("--help: examples that paste")
struct HelpExamplesTests {
    /// Every command `--help` shows (hidden ones left out), as its words: ["roll", "add"].
    static func commands() async throws -> [[String]] {
        let dump = try await FeedProcess.run(["--experimental-dump-help"])
        let root = try #require(try dump.json() as? [String: Any])
        func walk(_ command: [String: Any], _ path: [String]) -> [[String]] {
            let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool != false }
            return [path] + subcommands.flatMap { walk($0, path + [$0["commandName"] as? String ?? "?"]) }
        }
        return walk(try #require(root["command"] as? [String: Any]), [])
    }

    /// The lines of the EXAMPLES section of a help text.
    static func examples(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "EXAMPLES:") else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    @Test("every command has EXAMPLES; each is one line of at most 80 columns that bash parses; one at least runs feed")
    func everyCommand() async throws {
        let commands = try await Self.commands()
        #expect(commands.count > 30, "\(commands.count) commands")
        for words in commands {
            let help = try await FeedProcess.run(words + ["--help"])
            let name = (["feed"] + words).joined(separator: " ")
            let examples = Self.examples(help.stdout)
            #expect(examples.contains { $0.contains("feed ") }, "\(name) --help has no EXAMPLES running feed")
            for line in examples {
                #expect(line.hasPrefix("  ") && !line.hasPrefix("   "), "\(name): a wrapped example line: \(line)")
                #expect(line.count <= 80, "\(name): over 80 columns: \(line)")
                let syntax = try await Tool.run("/bin/bash", ["-n", "-c", line])
                #expect(syntax.status == 0, "\(name): not one line of shell: \(line) \(syntax.stderr)")
            }
        }
    }
}
