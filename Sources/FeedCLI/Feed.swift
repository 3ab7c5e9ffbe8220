import ArgumentParser
import FeedCore
import CFFmpeg

@main
struct Feed: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feed", abstract: "Short-video feed toolkit", version: "0.1.0", subcommands: [ProbeCommand.self, StackCommand.self])
    func run() throws {
        print(DemoFeed.videosJSON.count, String(cString: fs_version()))
    }
}
