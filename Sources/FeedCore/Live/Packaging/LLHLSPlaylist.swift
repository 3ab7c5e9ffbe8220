import Foundation

/// A live stream's low-latency HLS media playlist (draft-pantos-hls-rfc8216bis, Apple's LL-HLS):
/// the complete segments of the window, the parts of the recent ones and of the segment in
/// progress, and a preload hint for the next part; `EXT-X-ENDLIST` once the stream ended.
///
/// File names, which are the URIs, relative to the playlist: ``initURI`` (`init.mp4`),
/// ``segmentURI(sequence:)`` (`seg_{msn}.m4s`), ``partURI(sequence:index:)``
/// (`part_{msn}_{index}.m4s`), msn counting from 0.
///
/// Version 6 is the least its tags need (`EXT-X-MAP` without I-frames only); the LL-HLS tags
/// need none. `EXT-X-PART` tags are listed for every segment that ends within three target
/// durations of the playlist's end, as the spec asks, and for the segment in progress.
/// `PART-HOLD-BACK` is three part targets.
public struct LLHLSPlaylist: Sendable, Equatable {
    /// The init segment's name.
    public static let initURI = "init.mp4"

    /// Segment `sequence`'s name, `seg_{msn}.m4s`.
    public static func segmentURI(sequence: Int) -> String { "seg_\(sequence).m4s" }

    /// The name of part `index` of segment `sequence`, `part_{msn}_{index}.m4s`.
    public static func partURI(sequence: Int, index: Int) -> String { "part_\(sequence)_\(index).m4s" }

    /// The longest a part lasts, in seconds (`PART-TARGET`).
    public var partTarget: Double
    /// Whole seconds no segment's rounded duration exceeds (`EXT-X-TARGETDURATION`).
    public var targetDuration: Int
    /// The complete segments listed, oldest first.
    public var segments: [LiveSegment]
    /// The segment in progress (its parts so far), or nil once the stream ended.
    public var current: LiveSegment?
    /// How many discontinuities left the playlist with their segments (`EXT-X-DISCONTINUITY-SEQUENCE`).
    public var discontinuitySequence: Int
    /// The wall clock of media time 0, for `EXT-X-PROGRAM-DATE-TIME`; none when nil.
    public var programDateTime: Date?
    /// Whether every segment starts with a key frame (`EXT-X-INDEPENDENT-SEGMENTS`).
    public var independentSegments: Bool

    /// A playlist.
    public init(partTarget: Double, targetDuration: Int, segments: [LiveSegment], current: LiveSegment?,
                discontinuitySequence: Int = 0, programDateTime: Date? = nil, independentSegments: Bool = true) {
        self.partTarget = partTarget
        self.targetDuration = targetDuration
        self.segments = segments
        self.current = current
        self.discontinuitySequence = discontinuitySequence
        self.programDateTime = programDateTime
        self.independentSegments = independentSegments
    }

    /// Whether the stream ended (`EXT-X-ENDLIST`).
    public var ended: Bool { current == nil }

    /// The first listed segment's media sequence number (`EXT-X-MEDIA-SEQUENCE`).
    public var mediaSequence: Int { segments.first?.sequence ?? current?.sequence ?? 0 }

    /// The end of the last listed part, in seconds of media time.
    public var end: Double {
        if let current, !current.parts.isEmpty { return current.start + current.duration }
        return segments.last.map { $0.start + $0.duration } ?? current?.start ?? 0
    }

    /// The playlist's text.
    public var text: String {
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:6",
            "#EXT-X-TARGETDURATION:\(targetDuration)",
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=\(Self.decimal(3 * partTarget))",
            "#EXT-X-PART-INF:PART-TARGET=\(Self.decimal(partTarget))",
            "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)",
        ]
        if discontinuitySequence > 0 { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        if independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        lines.append("#EXT-X-MAP:URI=\"\(Self.initURI)\"")
        let partsFrom = end - 3 * Double(targetDuration)
        for segment in segments {
            header(of: segment, into: &lines)
            if segment.start + segment.duration > partsFrom { parts(of: segment, into: &lines) }
            lines.append("#EXTINF:\(Self.decimal(segment.duration)),")
            lines.append(segment.uri)
        }
        if let current {
            if !current.parts.isEmpty {
                header(of: current, into: &lines)
                parts(of: current, into: &lines)
            }
            lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(Self.partURI(sequence: current.sequence, index: current.parts.count))\"")
        } else {
            lines.append("#EXT-X-ENDLIST")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(of segment: LiveSegment, into lines: inout [String]) {
        if segment.discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
        if let programDateTime {
            let date = programDateTime.addingTimeInterval(segment.start)
            lines.append("#EXT-X-PROGRAM-DATE-TIME:" + date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
    }

    private func parts(of segment: LiveSegment, into lines: inout [String]) {
        for part in segment.parts {
            lines.append("#EXT-X-PART:DURATION=\(Self.decimal(part.duration)),URI=\"\(part.uri)\"" + (part.independent ? ",INDEPENDENT=YES" : ""))
        }
    }

    /// `value` with at most five decimals and no trailing zeros.
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.5f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
