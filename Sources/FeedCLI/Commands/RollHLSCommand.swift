import ArgumentParser
import FeedCore
import Foundation

/// `feed roll hls ID`: a recording's HLS ladder, made once and cached in the roll.
struct RollHLSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hls",
        abstract: "Package a recording as an HLS ladder, cached in the roll.",
        discussion: """
            The ladder (see 'feed hls --help') is made on first use and cached under \
            recordings/.hls/ID-SHA/; later calls, and feed serve's /roll/ID/hls/master.m3u8, \
            reuse it. The options apply when the ladder is made; --force makes it again with \
            them. 'feed roll rm' removes the cache with the recording; 'feed roll verify' \
            reports (and --fix deletes) ladders of recordings that are gone or changed. Prints \
            the path of master.m3u8, or with --json {"id","folder","master","variants"}, each \
            variant as the master playlist lists it (uri, bandwidth, average_bandwidth, codecs, \
            resolution, frame_rate) and, as 'feed hls --json' prints them, name, width, height.
            Exit status: 64 bad option, 65 no such recording (or it is not readable media), \
            66 its file is missing, 73/74 the cache cannot be written, 130 interrupted.

            EXAMPLES:
              feed roll hls 3
              ffprobe "$(feed roll hls 3)"
              feed roll hls 3 --ladder 720,360 --force
            """
    )

    @OptionGroup var store: CatalogOptions

    @Argument(help: ArgumentHelp("The recording's id.", valueName: "id")) var id: String
    @OptionGroup var ladderOptions: HLSLadderOptions
    @Flag(help: "Package again even if a cached ladder exists.") var force = false
    @Flag(help: "Print the folder and its variants as JSON.") var json = false

    func run() async throws {
        let options = try ladderOptions.options()
        try await RollCommand.withRoll(store: store) { roll in
            let recording = try await roll.recording(id: id)
            if force { roll.removeHLS(of: recording.id) }
            let trap = SignalTrap(signals: [SIGINT, SIGTERM])
            defer { trap.release() }
            let folder = try roll.hls(of: recording, options: options, isCancelled: trap.isCaught)
            let master = folder.appendingPathComponent(HLSMaster.fileName).path
            if json {
                let variants = try HLSMaster.variants(at: master)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let summary = Summary(id: recording.id, folder: folder.path, master: master, variants: variants.map(Variant.init))
                try StandardStream.output.write(String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n")
            } else {
                try StandardStream.output.write(master + "\n")
            }
        }
    }

    private struct Summary: Encodable {
        var id: Int64
        var folder: String
        var master: String
        var variants: [Variant]
    }

    /// A variant as the master playlist lists it, with `name`, `width` and `height` as `feed hls
    /// --json` prints them.
    private struct Variant: Encodable {
        var variant: HLSMaster.Variant

        private enum CodingKeys: String, CodingKey { case name, width, height }

        func encode(to encoder: any Encoder) throws {
            try variant.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(String(variant.uri.split(separator: "/").first ?? ""), forKey: .name)
            let sides = (variant.resolution ?? "").split(separator: "x").compactMap { Int($0) }
            if sides.count == 2 {
                try container.encode(sides[0], forKey: .width)
                try container.encode(sides[1], forKey: .height)
            }
        }
    }
}
