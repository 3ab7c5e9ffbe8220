import ArgumentParser
import FeedCore
import Foundation

/// `feed faststart IN -o OUT`: an MP4 with its index (`moov`) moved in front of its media.
struct FaststartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faststart",
        abstract: "Move an MP4's index (moov) in front of its media, without re-encoding.",
        discussion: """
            Phones write the index after the media, so a player over HTTP asks for the file's \
            tail before it can show the first picture. This copies the boxes in a new order and \
            shifts the chunk offsets in moov: the media bytes, and so every decoded frame, are \
            unchanged (qt-faststart and ffmpeg's -movflags +faststart do the same). A file \
            whose moov already leads is copied as it is. `feed probe --json` says where moov \
            is ("moov": "start" or "end"). `feed serve` does this by itself for what it serves.
            OUT is written to a hidden temporary file beside it and renamed into place: a \
            failure leaves no partial file. Prints one line, or with --json \
            {"input","output","moov":"moved"|"already","bytes","preload_bytes"}.
            Exit status: 66 IN does not exist, 65 it is not an MP4/MOV or its moov is \
            compressed, 73 OUT exists (without --force) or cannot be created, 74 a write failed.

            EXAMPLES:
              feed faststart phone.mov -o web.mov
              feed faststart clip.mp4 -o clip.mp4 --force
              feed faststart clip.mp4 -o out.mp4 --json | jq .preload_bytes
            """
    )

    @Argument(help: ArgumentHelp("The MP4, MOV or M4V file.", valueName: "input"))
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the fast-start file.", valueName: "output"))
    var output: String

    @Flag(help: "Replace OUT if it exists (OUT may be IN).")
    var force = false

    @Flag(help: "Print a JSON object instead of a line.")
    var json = false

    func validate() throws {
        if output.isEmpty { throw ValidationError("-o needs a file name") }
    }

    func run() async throws {
        let outcome = try FastStart.write(input: input, output: output, replace: force)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.int64Value ?? 0
        let preload = FastStart.preloadBytes(path: output)
        if json {
            let object: [String: Any] = ["input": input, "output": output, "moov": outcome.rawValue, "bytes": bytes,
                                         "preload_bytes": preload.map { $0 as Any } ?? NSNull()]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            try StandardStream.output.write(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            let what = outcome == .moved ? "moov moved to the start" : "moov already at the start, copied"
            try StandardStream.output.write("\(output): \(what) (\(bytes) bytes)\n")
        }
    }
}
