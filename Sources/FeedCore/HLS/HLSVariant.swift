import Foundation

/// A rung as the master playlist lists it, with bit rates measured from its segments.
public struct HLSVariant: Sendable, Equatable, Codable {
    /// Folder and name, e.g. `720p`; its playlist is `NAME/index.m3u8`.
    public var name: String
    public var width: Int
    public var height: Int
    /// The highest bit rate of any one segment, bits/s (`BANDWIDTH`).
    public var bandwidth: Int
    /// All segments' bits over their total duration, bits/s (`AVERAGE-BANDWIDTH`).
    public var averageBandwidth: Int
    /// RFC 6381 codecs, e.g. `avc1.64001f,mp4a.40.2`.
    public var codecs: String
    public var frameRate: Double
    public var segments: Int
    /// Pictures encoded.
    public var frames: Int

    enum CodingKeys: String, CodingKey {
        case name, width, height, bandwidth, codecs, segments, frames
        case averageBandwidth = "average_bandwidth", frameRate = "frame_rate"
    }

    /// Bit rates of `playlist`'s segments from their sizes (`sizes[i]` bytes for segment i).
    /// ``bandwidths(_:sizes:)`` of `playlist`, whose segments are in `folder`, from their sizes
    /// on disk (a missing one counts 0).
    static func bandwidths(_ playlist: HLSPlaylist, folder: String) -> (peak: Int, average: Int) {
        let sizes = playlist.segments.map { segment in
            ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + segment.uri))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return bandwidths(playlist, sizes: sizes)
    }

    static func bandwidths(_ playlist: HLSPlaylist, sizes: [Int64]) -> (peak: Int, average: Int) {
        var peak = 0.0, bits = 0.0
        for (segment, size) in zip(playlist.segments, sizes) {
            bits += Double(size) * 8
            if segment.duration > 0 { peak = max(peak, Double(size) * 8 / segment.duration) }
        }
        let duration = playlist.duration
        return (Int(peak.rounded(.up)), duration > 0 ? Int((bits / duration).rounded(.up)) : Int(peak.rounded(.up)))
    }

    /// The master playlist over `variants` (listed in the order given).
    /// The folder of the audio rendition, beside the rungs' (`audio/index.m3u8`).
    public static let audioFolder = "audio"
    /// The `GROUP-ID` of the audio rendition.
    static let audioGroup = "aac"

    static func master(_ variants: [HLSVariant], audio: Bool) -> String {
        var out = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        if audio {
            out += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(audioGroup)\",NAME=\"audio\",DEFAULT=YES,AUTOSELECT=YES,"
                + "URI=\"\(audioFolder)/index.m3u8\"\n"
        }
        for variant in variants {
            out += "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),AVERAGE-BANDWIDTH=\(variant.averageBandwidth),"
                + "CODECS=\"\(variant.codecs)\",RESOLUTION=\(variant.width)x\(variant.height),"
                + (audio ? "AUDIO=\"\(audioGroup)\"," : "")
                + "FRAME-RATE=\(String(format: "%.3f", variant.frameRate))\n\(variant.name)/index.m3u8\n"
        }
        return out
    }
}
