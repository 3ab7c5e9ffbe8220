import FeedCore
import Foundation

/// `feed probe`'s table: one row per file, the path as given on the command line and never cut.
enum MediaInfoTable {
    /// The table: file, container, duration, video codec, coded and display size, rotation,
    /// frame rate (nominal and average when variable), audio ("-" without), bytes.
    static func table(_ probed: [(path: String, info: MediaInfo)]) -> Table {
        var table = Table(columns: [
            .init(header: "FILE"),
            .init(header: "CONTAINER"),
            .init(header: "DURATION", rightAligned: true),
            .init(header: "VIDEO"),
            .init(header: "CODED", rightAligned: true),
            .init(header: "DISPLAY", rightAligned: true),
            .init(header: "ROTATION", rightAligned: true),
            .init(header: "FPS", rightAligned: true),
            .init(header: "AUDIO"),
            .init(header: "BYTES", rightAligned: true),
        ])
        for (path, info) in probed {
            table.rows.append([
                path, info.container, String(format: "%.2fs", info.duration), info.videoCodec,
                "\(info.codedWidth)x\(info.codedHeight)", "\(info.displayWidth)x\(info.displayHeight)", "\(info.rotation)",
                rate(info), audio(info), String(info.bytes),
            ])
        }
        return table
    }

    /// "30.00" for a constant rate; for a variable one the nominal rate, "vfr" and the average:
    /// "30.00 vfr avg 27.02"; "-" when unknown.
    static func rate(_ info: MediaInfo) -> String {
        guard info.fps > 0 else { return "-" }
        guard info.variableFrameRate else { return String(format: "%.2f", info.fps) }
        return String(format: "%.2f vfr avg %.2f", info.nominalFPS, info.fps)
    }

    /// "aac 48000 Hz 2ch", or "-" without audio.
    static func audio(_ info: MediaInfo) -> String {
        guard let codec = info.audioCodec else { return "-" }
        var text = codec
        if let rate = info.audioSampleRate { text += " \(rate) Hz" }
        if let channels = info.audioChannels { text += " \(channels)ch" }
        return text
    }
}
