import ArgumentParser
import FeedCore
import Foundation

/// `feed storyboard IN -o DIR`: a sprite of evenly spaced tiles and WebVTT cues pointing into it.
struct StoryboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storyboard",
        abstract: "Make a storyboard for timeline scrubbing: a JPEG sprite and WebVTT cues.",
        discussion: """
            Writes DIR/storyboard.jpg, a grid of evenly spaced tiles (one a second, at most \
            --tiles, each the picture at the middle of its span, upright, its longest side \
            --tile-size pixels), and DIR/storyboard.vtt, one cue per tile covering the whole \
            duration, whose text points into the sprite: storyboard.jpg#xywh=X,Y,W,H (Mux's \
            format; a player shows the tile of the time under the pointer). `feed serve` gives \
            a recording's at /media/roll/ID/storyboard.vtt. DIR is made if missing; each file \
            is written to a temporary file and renamed into place, the cues last. Prints the \
            cue file's path, or with --json {"image","cues","tiles","columns","tile_width",\
            "tile_height","width","height"}.
            Exit status: 66 IN does not exist, 65 it is not a video feed can decode, 73 a file \
            exists (without --force) or DIR cannot be written, 74 IN cannot be read or a file \
            cannot be written, 130 interrupted by SIGINT or SIGTERM (nothing is written).

            EXAMPLES:
              feed storyboard clip.mp4 -o board
              feed storyboard clip.mp4 -o board --tile-size 120 --tiles 30 --force
              feed storyboard clip.mp4 -o board --json | jq .tiles
            """
    )

    @Argument(help: ArgumentHelp("The video file.", valueName: "input"))
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder for storyboard.jpg and storyboard.vtt.", valueName: "dir"))
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("The longest side of a tile, in pixels (16–640).", valueName: "pixels"))
    var tileSize = Storyboard.defaultTileSide

    @Option(parsing: .unconditional, help: ArgumentHelp("The most tiles (1–1000); below it, one a second.", valueName: "count"))
    var tiles = Storyboard.defaultMaxTiles

    @Flag(help: "Replace the files if they exist.")
    var force = false

    @Flag(help: "Print a JSON object instead of the cue file's path.")
    var json = false

    func validate() throws {
        if output.isEmpty { throw ValidationError("-o needs a folder name") }
        guard (16...640).contains(tileSize) else { throw ValidationError("--tile-size must be 16…640 pixels, not \(tileSize)") }
        guard (1...1000).contains(tiles) else { throw ValidationError("--tiles must be 1…1000, not \(tiles)") }
    }

    func run() async throws {
        if let refusal = MediaLocation.refusal(toOpen: input, allowNetwork: false) { throw refusal }
        // SIGINT and SIGTERM stop it between tiles (130, as stack and hls), before anything is written.
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        let board = try Storyboard.write(path: input, folder: output, tileSide: tileSize, maxTiles: tiles, replace: force,
                                         isCancelled: trap.isCaught)
        let image = output + "/" + Storyboard.imageName, cues = output + "/" + Storyboard.cuesName
        if json {
            let object: [String: Any] = ["image": image, "cues": cues, "tiles": board.tiles.count, "columns": board.columns,
                                         "tile_width": board.tileWidth, "tile_height": board.tileHeight,
                                         "width": board.width, "height": board.height]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            try StandardStream.output.write(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            try StandardStream.output.write(cues + "\n")
        }
    }
}
