import Foundation
import Testing
@testable import FeedCore

/// The LL-HLS media playlist's text and its answers to blocking requests.
@Suite("LLHLSPlaylist")
struct LLHLSPlaylistTests {
    static func segment(_ sequence: Int, parts: Int = 3, discontinuity: Bool = false) -> LiveSegment {
        LiveSegment(sequence: sequence, start: Double(sequence),
                    parts: (0 ..< parts).map { LivePart(sequence: sequence, index: $0, duration: $0 == 2 ? 0.334 : 0.333, independent: $0 == 0) },
                    discontinuity: discontinuity)
    }

    /// Segments 3–6 complete, 7 in progress with two parts, 1 s target, media time 0 at 2024-01-01T00:00:00Z.
    static let live = LLHLSPlaylist(partTarget: 0.34, targetDuration: 1, segments: (3 ... 6).map { segment($0, discontinuity: $0 == 6) },
                                    current: segment(7, parts: 2), programDateTime: Date(timeIntervalSince1970: 1_704_067_200))

    @Test("the text: header tags, a date per segment, parts for the segments within three target durations of the end and the one in progress, the preload hint")
    func text() {
        #expect(Self.live.text == """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:1
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.02
            #EXT-X-PART-INF:PART-TARGET=0.34
            #EXT-X-MEDIA-SEQUENCE:3
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:03.000Z
            #EXTINF:1,
            seg_3.m4s
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:04.000Z
            #EXT-X-PART:DURATION=0.333,URI="part_4_0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.333,URI="part_4_1.m4s"
            #EXT-X-PART:DURATION=0.334,URI="part_4_2.m4s"
            #EXTINF:1,
            seg_4.m4s
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:05.000Z
            #EXT-X-PART:DURATION=0.333,URI="part_5_0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.333,URI="part_5_1.m4s"
            #EXT-X-PART:DURATION=0.334,URI="part_5_2.m4s"
            #EXTINF:1,
            seg_5.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:06.000Z
            #EXT-X-PART:DURATION=0.333,URI="part_6_0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.333,URI="part_6_1.m4s"
            #EXT-X-PART:DURATION=0.334,URI="part_6_2.m4s"
            #EXTINF:1,
            seg_6.m4s
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:07.000Z
            #EXT-X-PART:DURATION=0.333,URI="part_7_0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.333,URI="part_7_1.m4s"
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_7_2.m4s"

            """)
    }

    @Test("once ended: EXT-X-ENDLIST and no preload hint; a discontinuity sequence is written when not zero")
    func ended() {
        var playlist = Self.live
        playlist.current = nil
        playlist.discontinuitySequence = 2
        #expect(playlist.ended)
        #expect(playlist.text.hasSuffix("seg_6.m4s\n#EXT-X-ENDLIST\n"))
        #expect(!playlist.text.contains("PRELOAD-HINT"))
        #expect(playlist.text.contains("#EXT-X-MEDIA-SEQUENCE:3\n#EXT-X-DISCONTINUITY-SEQUENCE:2\n"))
    }

    @Test("blocking requests: ready once the segment or part (or a later one) is listed, held until then, 400 when over two segments or the advance part limit ahead",
          arguments: [
              (6, nil, LLHLSPlaylist.BlockingReload.ready), (7, nil, .hold), (9, nil, .hold), (10, nil, .tooFarAhead),
              (2, nil, .ready), (7, 1, .ready), (7, 2, .hold), (6, 5, .ready), (5, 0, .ready), (8, 0, .hold),
              (7, 9, .hold), (7, 10, .tooFarAhead), (9, 0, .hold), (10, 0, .tooFarAhead),
              (7, .min, .ready), (7, .max, .tooFarAhead), (.max, .max, .tooFarAhead), (.min, nil, .ready),
          ] as [(Int, Int?, LLHLSPlaylist.BlockingReload)])
    func blocking(msn: Int, part: Int?, answer: LLHLSPlaylist.BlockingReload) {
        #expect(Self.live.blockingReload(msn: msn, part: part) == answer)
    }

    @Test("a segment in progress without parts yet does not count as listed; an ended playlist answers every request at once")
    func edges() {
        var playlist = Self.live
        playlist.current = Self.segment(7, parts: 0)
        #expect(playlist.blockingReload(msn: 9, part: 0) == .tooFarAhead)
        #expect(playlist.blockingReload(msn: 7, part: 0) == .hold)
        #expect(playlist.blockingReload(msn: 6, part: 2) == .ready)
        #expect(playlist.text.hasSuffix("seg_6.m4s\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"part_7_0.m4s\"\n"))
        playlist.current = nil
        #expect(playlist.blockingReload(msn: 100, part: 3) == .ready)
    }
}
