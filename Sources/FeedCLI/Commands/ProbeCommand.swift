import ArgumentParser
import FeedCore
import Foundation

/// `feed probe FILE…`: what each media file holds, as a table or JSON.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show container, codecs, sizes, rotation, frame rate and audio of media files.",
        discussion: """
            Local files only; playlists, concat scripts and image sequences are refused.
            --json prints an array of objects: path, container, duration, videoCodec, codedWidth, \
            codedHeight, displayWidth, displayHeight, rotation, fps, variableFrameRate, audioCodec, \
            audioSampleRate, audioChannels, bytes.
            Exit status: 66 when a file is missing, 65 when one is not readable media.
            """
    )

    @Argument(help: "Media files to probe.")
    var files: [String]

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func run() throws {
        var probed: [(String, MediaInfo)] = []
        var failures: [MediaError] = []
        for file in files {
            do { probed.append((file, try MediaProbe.probe(path: file))) } catch { failures.append(error) }
        }
        if failures.count == 1 && files.count == 1 { throw failures[0] }
        for failure in failures { FileHandle.standardError.write(Data("feed: \(failure)\n".utf8)) }
        FileHandle.standardOutput.write(Data((json ? Self.json(probed) : Self.table(probed)).utf8))
        if let first = failures.first {
            throw ProbeFailure(description: "\(failures.count) of \(files.count) files could not be probed", exitStatus: first.exitStatus)
        }
    }

    /// Stable JSON: MediaInfo's fields plus `path`, keys sorted.
    static func json(_ probed: [(String, MediaInfo)]) -> String {
        struct Entry: Encodable {
            var path: String
            var info: MediaInfo
            func encode(to encoder: Encoder) throws {
                try info.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(path, forKey: .path)
            }
            enum Key: String, CodingKey { case path }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = (try? encoder.encode(probed.map { Entry(path: $0.0, info: $0.1) })) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One aligned row per file.
    static func table(_ probed: [(String, MediaInfo)]) -> String {
        let header = ["FILE", "CONTAINER", "DURATION", "VIDEO", "CODED", "DISPLAY", "ROTATION", "FPS", "AUDIO", "BYTES"]
        let rows = probed.map { path, info -> [String] in
            let audio = info.audioCodec.map { "\($0) \(info.audioSampleRate ?? 0) Hz \(info.audioChannels ?? 0)ch" } ?? "-"
            return [path, info.container, String(format: "%.2fs", info.duration), info.videoCodec,
                    "\(info.codedWidth)x\(info.codedHeight)", "\(info.displayWidth)x\(info.displayHeight)", "\(info.rotation)",
                    String(format: "%.2f", info.fps) + (info.variableFrameRate ? " vfr" : ""), audio, "\(info.bytes)"]
        }
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        let right: Set<Int> = [2, 6, 7, 9]
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == cells.count - 1 && !right.contains(i) ? cell : (right.contains(i) ? pad + cell : cell + pad)
            }.joined(separator: "  ") + "\n"
        }
        return ([header] + rows).map(line).joined()
    }
}

/// Some of several files could not be probed; the status is the first failure's.
struct ProbeFailure: FeedFailure {
    var description: String
    var exitStatus: ExitStatus
}
