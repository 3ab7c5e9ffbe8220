import Foundation

/// A rung's media playlist: the init segment and each segment with its duration. Read back from
/// what FFmpeg's hls muxer wrote and written again by feed, so the tags are the ones Apple's
/// authoring spec asks for and `EXT-X-TARGETDURATION` is never below a segment's `EXTINF`.
public struct HLSPlaylist: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        public var uri: String
        public var duration: Double
    }

    public var initSegment: String
    public var segments: [Segment]

    /// Whole seconds no segment exceeds.
    public var targetDuration: Int { max(1, Int(segments.map { ($0.duration * 1e6).rounded() / 1e6 }.max().map { $0.rounded(.up) } ?? 1)) }
    /// Sum of the segments' durations.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    public init(initSegment: String, segments: [Segment]) {
        self.initSegment = initSegment
        self.segments = segments
    }

    /// Reads an fMP4 VOD media playlist; throws when it has no map or no segments.
    /// The playlist in the file at `path`.
    /// - Throws: ``HLSError/badPlaylist(path:reason:)`` when it cannot be read or parsed.
    public static func read(path: String) throws(HLSError) -> HLSPlaylist {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .badPlaylist(path: path, reason: error.localizedDescription)
        }
        return try HLSPlaylist(parsing: text, path: path)
    }

    public init(parsing text: String, path: String) throws(HLSError) {
        var initSegment: String?
        var segments: [Segment] = []
        var pending: Double?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#EXT-X-MAP:") {
                guard let start = line.range(of: "URI=\""), let end = line[start.upperBound...].firstIndex(of: "\"") else {
                    throw .badPlaylist(path: path, reason: "EXT-X-MAP without a URI")
                }
                initSegment = String(line[start.upperBound..<end])
            } else if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count).prefix { $0 != "," }
                guard let seconds = Double(value), seconds >= 0 else { throw .badPlaylist(path: path, reason: "bad EXTINF \(value)") }
                pending = seconds
            } else if !line.isEmpty && !line.hasPrefix("#") {
                guard let duration = pending else { throw .badPlaylist(path: path, reason: "\(line) has no EXTINF") }
                segments.append(Segment(uri: line, duration: duration))
                pending = nil
            }
        }
        guard let initSegment else { throw .badPlaylist(path: path, reason: "no EXT-X-MAP") }
        guard !segments.isEmpty else { throw .badPlaylist(path: path, reason: "no segments") }
        self.initSegment = initSegment
        self.segments = segments
    }

    /// The playlist as feed writes it (VOD, independent segments, fMP4 map).
    public var text: String {
        var out = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:\(targetDuration)
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="\(initSegment)"

            """
        for segment in segments {
            out += "#EXTINF:\(String(format: "%.6f", segment.duration)),\n\(segment.uri)\n"
        }
        return out + "#EXT-X-ENDLIST\n"
    }
}
