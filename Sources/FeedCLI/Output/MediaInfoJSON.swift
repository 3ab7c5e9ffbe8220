import FeedCore
import Foundation

/// `feed probe --json`: an array of objects with stable snake_case keys, sorted, every key
/// always present (audio fields `null` without audio):
/// path, container, duration, video_codec, coded_width, coded_height, display_width,
/// display_height, rotation, fps (the average), nominal_fps (the rate most frames follow),
/// variable_frame_rate, audio_codec, audio_sample_rate,
/// audio_channels, bytes, moov (`start` when an MP4's index comes before its media, fast start;
/// `end` after it; null for other containers and URLs).
enum MediaInfoJSON {
    /// The array's text, newline-terminated.
    static func array(_ probed: [(path: String, info: MediaInfo)]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Array(try encoder.encode(probed.map { Entry(path: $0.path, info: $0.info) })) + [0x0A]
    }

    /// MediaInfo's own fields plus the path it was probed at.
    private struct Entry: Encodable {
        var path: String
        var info: MediaInfo

        private enum Key: String, CodingKey { case path, moov }

        func encode(to encoder: Encoder) throws {
            try info.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(path, forKey: .path)
            let local = !(path.hasPrefix("http://") || path.hasPrefix("https://"))
            try container.encode(local ? MP4Layout.of(path: path)?.index.rawValue : nil, forKey: .moov)
        }
    }
}
