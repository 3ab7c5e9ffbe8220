import Foundation
import Testing
@testable import FeedCore

/// The segmenter on streams made up in code: where parts and segments are cut, how timestamps
/// that go wrong are handled, the window, and the calls it refuses.
@Suite("LiveSegmenter")
struct LiveSegmenterTests {
    /// A segmenter that has had the sequence headers of the tracks asked for.
    static func segmenter(video: Bool = true, audio: Bool = true,
                          options: LiveSegmenterOptions = LiveSegmenterOptions()) throws -> LiveSegmenter {
        var segmenter = try LiveSegmenter(options: options)
        if video { #expect(try segmenter.append(.videoConfiguration(CMAFWriterTests.video)).isEmpty) }
        if audio { #expect(try segmenter.append(.audioConfiguration(CMAFWriterTests.audio)).isEmpty) }
        return segmenter
    }

    /// Feeds `samples`, then finishes when asked; every event.
    static func run(_ samples: [LiveSample], video: Bool = true, audio: Bool = true, finish: Bool = true,
                    options: LiveSegmenterOptions = LiveSegmenterOptions()) throws -> (LiveSegmenter, [LiveSegmenter.Event]) {
        var segmenter = try segmenter(video: video, audio: audio, options: options)
        var events: [LiveSegmenter.Event] = []
        for sample in samples { events += try segmenter.append(sample) }
        if finish { events += segmenter.finish() }
        return (segmenter, events)
    }

    static func parts(_ events: [LiveSegmenter.Event]) -> [(part: LivePart, bytes: [UInt8])] {
        events.compactMap { if case .part(let part, let bytes) = $0 { (part, bytes) } else { nil } }
    }

    static func segments(_ events: [LiveSegmenter.Event]) -> [LiveSegment] {
        events.compactMap { if case .segment(let segment, _) = $0 { segment } else { nil } }
    }

    /// Every traf of every part, in order.
    static func trafs(_ events: [LiveSegmenter.Event]) -> [TrackFragment] {
        parts(events).flatMap { TrackFragment.all(in: $0.bytes).joined() }
    }

    /// Checks that on each track every traf starts where the one before ended, or later.
    static func expectNoOverlap(_ events: [LiveSegmenter.Event], sourceLocation: SourceLocation = #_sourceLocation) {
        var ends: [UInt32: UInt64] = [:]
        for traf in trafs(events) {
            if let end = ends[traf.trackID] {
                #expect(traf.baseDecodeTime >= end, "track \(traf.trackID) goes back", sourceLocation: sourceLocation)
            }
            ends[traf.trackID] = traf.baseDecodeTime + traf.durations.reduce(0) { $0 + UInt64($1) }
        }
    }

    @Test("a 30 fps stream with a key frame a second: the init segment first, then segments of 1 s in three parts of ten frames")
    func cutting() throws {
        // Given 4 s of 30 fps video and 44.1 kHz audio, when it is cut with the defaults,
        let (segmenter, events) = try Self.run(LiveMedia.stream(seconds: 4))
        // then the init segment comes first, and every segment is three parts of ten frames.
        guard case .initialization(let bytes) = events.first else { Issue.record("no init segment first"); return }
        #expect(bytes == segmenter.initSegment)
        let segments = Self.segments(events)
        #expect(segments.map(\.sequence) == [0, 1, 2, 3])
        for segment in segments {
            #expect(abs(segment.duration - 1) < 0.002)
            #expect(segment.parts.map(\.independent) == [true, false, false])
        }
        #expect(Self.trafs(events).filter { $0.trackID == 1 }.map(\.durations.count).allSatisfy { $0 == 10 })
        #expect(Self.parts(events).allSatisfy { $0.part.duration <= 0.34 })
        Self.expectNoOverlap(events)
    }

    @Test("a frame longer than the part target makes a part of its own, and only then is a part longer than the target")
    func longFrames() throws {
        let (_, events) = try Self.run(LiveMedia.stream(seconds: 4, fps: 2, gop: 2, audio: false), audio: false)
        let parts = Self.parts(events)
        #expect(parts.count == 8)
        for (part, bytes) in parts {
            #expect(abs(part.duration - 0.5) < 0.001)
            #expect(TrackFragment.all(in: bytes)[0][0].durations.count == 1)
        }
    }

    @Test("a segment closes at the first key frame at or after the segment target",
          arguments: [(15, 1.0, 1.0), (30, 1.0, 1.0), (45, 1.5, 1.5), (60, 2.0, 2.0)])
    func segmentLength(gop: Int, target: Double, seconds: Double) throws {
        let options = LiveSegmenterOptions(segmentTarget: target)
        let (segmenter, events) = try Self.run(LiveMedia.stream(seconds: 6, gop: gop), finish: false, options: options)
        let segments = Self.segments(events)
        #expect(!segments.isEmpty)
        for segment in segments {
            #expect(abs(segment.duration - seconds) < 0.002, "\(segment)")
            #expect(segment.parts.first?.independent == true)
        }
        #expect(segmenter.playlist(startingAt: Date()).targetDuration == Int(seconds.rounded()))
        #expect(segmenter.playlist(startingAt: Date()).text.contains("#EXT-X-INDEPENDENT-SEGMENTS\n"))
        // Every key frame starts a part: with two key frames a segment, two independent parts.
        #expect(Self.parts(events).filter(\.part.independent).count == 6 * 30 / gop)
    }

    @Test("key frames further apart than the target duration: segments never round to more than it (it never changes), every key frame starts an independent part")
    func longKeyFrameInterval() throws {
        // Given a key frame every 2 s against the default 1 s target, when 12 s are cut,
        var segmenter = try Self.segmenter()
        var events: [LiveSegmenter.Event] = [], targets: Set<Int> = []
        for sample in LiveMedia.stream(seconds: 12, gop: 60) {
            events += try segmenter.append(sample)
            targets.insert(segmenter.playlist(startingAt: Date()).targetDuration)
        }
        events += segmenter.finish()
        // then the target duration stays 1, and every segment rounds to 1 s or less,
        #expect(targets == [1])
        let segments = Self.segments(events)
        #expect(segments.allSatisfy { $0.duration.rounded() <= 1 }, "\(segments.map(\.duration))")
        #expect(abs(segments.map(\.duration).reduce(0, +) - 12) < 0.002)
        // the six key frames each start a part marked independent, and no other part is,
        let parts = Self.parts(events)
        let video = parts.map { TrackFragment.all(in: $0.bytes)[0].first { $0.trackID == 1 }! }
        let keyStarts = video.map { Int($0.baseDecodeTime) % (2 * CMAFWriter.videoTimescale) == 0 }
        #expect(parts.map(\.part.independent) == keyStarts && keyStarts.filter { $0 }.count == 6)
        // and a segment that starts between key frames starts with a part that is not: the
        // playlist no longer says EXT-X-INDEPENDENT-SEGMENTS.
        #expect(segments.contains { $0.parts.first?.independent == false })
        #expect(!segmenter.playlist(startingAt: Date()).text.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
        #expect(parts.allSatisfy { $0.part.duration <= 0.34 })
        Self.expectNoOverlap(events)
    }

    @Test("frames before the first key frame and the audio before it are dropped; the timeline starts at that key frame")
    func firstKeyFrame() throws {
        // Half a second of inter frames, then a key frame at 500 ms.
        let samples = LiveMedia.stream(seconds: 2.5, gop: 1000).map { sample in
            var sample = sample
            if sample.track == .video { sample.isKeyFrame = sample.decodeTime == 500 }
            return sample
        }
        let (_, events) = try Self.run(samples)
        let trafs = Self.trafs(events)
        let video = trafs.filter { $0.trackID == 1 }, audio = trafs.filter { $0.trackID == 2 }
        #expect(video.first?.baseDecodeTime == 0 && video.first?.startsWithSync == true)
        #expect(video.flatMap(\.durations).count == 75 - 15)
        // The first audio frame kept is the first at or after 500 ms (511 ms), 11 ms after the key frame.
        #expect(audio.first?.baseDecodeTime == UInt64((11 * 44_100 + 500) / 1000))
        #expect(audio.flatMap(\.durations).count == Int(2.5 * 44_100 / 1024) - 22)
    }

    @Test("audio only: every part is independent, segments close at the first frame at or after the target, frames last 1024 samples")
    func audioOnly() throws {
        let (_, events) = try Self.run(LiveMedia.stream(seconds: 4, video: false), video: false)
        let parts = Self.parts(events)
        #expect(parts.allSatisfy { $0.part.independent && $0.part.duration <= 0.34 })
        for segment in Self.segments(events).dropLast() { #expect(abs(segment.duration - 44 * 1024 / 44_100.0) < 0.0001) }
        #expect(Self.trafs(events).flatMap(\.durations).allSatisfy { $0 == 1024 })
        Self.expectNoOverlap(events)
    }

    @Test("millisecond jitter leaves audio frames at 1024 samples; a gap of more than a frame moves the audio timeline on")
    func audioGaps() throws {
        var samples = LiveMedia.stream(seconds: 2, video: false)
        for index in samples.indices where index % 3 == 1 { samples[index].decodeTime += 1 }
        samples = samples.filter { !(1000 ..< 1100).contains($0.decodeTime) }   // 100 ms lost
        let (_, events) = try Self.run(samples, video: false)
        let durations = Self.trafs(events).flatMap(\.durations)
        #expect(durations.filter { $0 != 1024 }.count == 1)
        #expect(durations.contains { $0 > 1024 + 4000 })   // the frame before the gap lasts through it
    }

    @Test("a timestamp that goes backwards closes the segment, the next starts at a key frame marked EXT-X-DISCONTINUITY, on a timeline that goes on")
    func backwards() throws {
        // Given a publisher whose clock starts again from 0 after 2.5 s,
        let first = LiveMedia.stream(seconds: 2.5), second = LiveMedia.stream(seconds: 2)
        let (segmenter, events) = try Self.run(first + second, finish: false)
        // then the jump is reported, the segment it cut is short, and the next is marked and goes on at 2.5 s.
        #expect(events.contains(.discontinuity(track: .audio, from: first.last { $0.track == .audio }!.decodeTime, to: 0)))
        let segments = Self.segments(events)
        #expect(segments.map(\.discontinuity) == [false, false, false, true])
        #expect(abs(segments[2].duration - 0.5) < 0.002)   // closed early, at the jump
        #expect(abs(segments[3].start - 2.5) < 0.002)
        Self.expectNoOverlap(events)
        let text = segmenter.playlist(startingAt: Date()).text
        #expect(text.contains("#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:"))
        #expect(text.components(separatedBy: "#EXT-X-DISCONTINUITY\n").count == 2)
    }

    @Test("a jump forward past the maximum gap is a discontinuity; a smaller one is a long frame; late audio of the old timeline is dropped")
    func forward() throws {
        let shifted = { (seconds: Int64) in
            LiveMedia.stream(seconds: 2).map { var sample = $0; sample.decodeTime += seconds * 1000 + 2000; return sample }
        }
        let (_, small) = try Self.run(LiveMedia.stream(seconds: 2) + shifted(5))
        #expect(!small.contains { if case .discontinuity = $0 { true } else { false } })
        #expect(Self.segments(small).contains { $0.duration > 5 })

        // The video jumps 11 s first; two audio frames of the old timeline come after it.
        let later = shifted(11).filter { !($0.track == .video && $0.decodeTime == 13_000) }
        let jump = LiveMedia.stream(seconds: 2) + [LiveMedia.videoFrame(13_000, key: true), LiveMedia.audioFrame(1990),
                                                   LiveMedia.audioFrame(2013)] + later
        let (_, events) = try Self.run(jump)
        let discontinuities = events.filter { if case .discontinuity = $0 { true } else { false } }
        #expect(discontinuities.count == 1)
        #expect(Self.segments(events).map(\.discontinuity).filter { $0 }.count == 1)
        #expect(Self.trafs(events).filter { $0.trackID == 2 }.flatMap(\.durations).count == 2 * 86)   // not the two late ones
        Self.expectNoOverlap(events)
    }

    @Test("without key frames, video frames past the maximum key frame distance are refused until a key frame; the last frame kept lasts until it")
    func noKeyFrames() throws {
        var segmenter = try Self.segmenter(audio: false)
        var events: [LiveSegmenter.Event] = [], refused = 0
        for sample in LiveMedia.stream(seconds: 25, gop: 30 * 22, audio: false) {
            do throws(LivePackagingError) { events += try segmenter.append(sample) } catch {
                #expect(error == .keyFramesTooFarApart(seconds: 20))
                refused += 1
            }
        }
        #expect(refused == 2 * 30 - 1)                      // 20.033 s to 21.967 s
        events += segmenter.finish()
        // The last frame kept lasts until the key frame: the one segment longer than the target duration.
        let durations = Self.segments(events).map(\.duration)
        #expect(abs(durations.reduce(0, +) - 25) < 0.002)
        #expect(durations.filter { $0.rounded() > 1 }.map { ($0 * 1000).rounded() / 1000 } == [2], "\(durations)")
    }

    @Test("the playlist keeps the last N segments; a segment's files are given back N + 1 segments after it left")
    func window() throws {
        // Given a window of 3 segments, when 12 s are cut (11 segments closed, the 12th in progress),
        let options = LiveSegmenterOptions(windowSegments: 3)
        let (segmenter, events) = try Self.run(LiveMedia.stream(seconds: 12), finish: false, options: options)
        // then the playlist has 8–10, and segment k's files go when segment k + 7 closes.
        #expect(segmenter.segments.map(\.sequence) == [8, 9, 10])
        let order = events.compactMap { event -> String? in
            switch event {
            case .segment(let segment, _): "s\(segment.sequence)"
            case .removed(let segment): "r\(segment.sequence)"
            default: nil
            }
        }
        #expect(order == ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "r0", "s8", "r1", "s9", "r2", "s10", "r3"])
        let playlist = segmenter.playlist(startingAt: Date())
        #expect(playlist.mediaSequence == 8)
        #expect(playlist.text.contains("#EXT-X-MEDIA-SEQUENCE:8\n"))
    }

    @Test("a discontinuity that leaves the window counts in EXT-X-DISCONTINUITY-SEQUENCE")
    func discontinuitySequence() throws {
        let options = LiveSegmenterOptions(windowSegments: 3)
        let (segmenter, _) = try Self.run(LiveMedia.stream(seconds: 2) + LiveMedia.stream(seconds: 6), options: options)
        let playlist = segmenter.playlist(startingAt: Date())
        #expect(playlist.discontinuitySequence == 1)
        #expect(playlist.text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:1\n"))
        #expect(!playlist.text.contains("#EXT-X-DISCONTINUITY\n"))
    }

    @Test("sequence headers: none before a frame, a new track or a changed one after the start are refused and change nothing; the same again is ignored")
    func configurations() throws {
        var empty = try LiveSegmenter()
        #expect(throws: LivePackagingError.sampleBeforeConfiguration(track: .video)) { try empty.append(LiveMedia.videoFrame(0, key: true)) }

        var segmenter = try Self.segmenter(audio: false)
        var events = try segmenter.append(LiveMedia.videoFrame(0, key: true))
        #expect(try segmenter.append(.videoConfiguration(CMAFWriterTests.video)).isEmpty)
        var changed = LiveMedia.avcRecord
        changed[3] = 30
        #expect(throws: LivePackagingError.configurationChanged(track: .video)) {
            try segmenter.append(.videoConfiguration(AVCConfiguration(record: changed)))
        }
        #expect(throws: LivePackagingError.trackAfterStart(track: .audio)) { try segmenter.append(.audioConfiguration(CMAFWriterTests.audio)) }
        #expect(throws: LivePackagingError.sampleBeforeConfiguration(track: .audio)) { try segmenter.append(LiveMedia.audioFrame(10)) }
        #expect(throws: LivePackagingError.self) { try segmenter.append(LiveSample(track: .video, decodeTime: 33, isKeyFrame: false, payload: [0, 0, 9])) }
        #expect(throws: LivePackagingError.timestampOutOfRange(.min)) { try segmenter.append(LiveMedia.videoFrame(.min, key: true)) }
        for sample in LiveMedia.stream(seconds: 2, audio: false).dropFirst() { events += try segmenter.append(sample) }
        events += segmenter.finish()

        let (_, plain) = try Self.run(LiveMedia.stream(seconds: 2, audio: false), audio: false)
        #expect(events == plain)
    }

    @Test("finish writes what is held, ends the playlist and refuses more; a second finish gives nothing")
    func finish() throws {
        let (held, before) = try Self.run(LiveMedia.stream(seconds: 1.5), finish: false)
        var segmenter = held
        let after = segmenter.finish()
        #expect(Self.segments(before).count == 1)
        #expect(Self.segments(after).count == 1)
        #expect(Self.trafs(before + after).filter { $0.trackID == 1 }.flatMap(\.durations).count == 45)
        #expect(segmenter.playlist(startingAt: Date()).text.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(throws: LivePackagingError.finished) { try segmenter.append(LiveMedia.videoFrame(2000, key: true)) }
        #expect(segmenter.finish().isEmpty)
    }

    @Test("options out of range are refused, naming the option", arguments: [
        LiveSegmenterOptions(partTarget: 0.1), LiveSegmenterOptions(partTarget: 0.6), LiveSegmenterOptions(partTarget: .nan),
        LiveSegmenterOptions(segmentTarget: 0.5), LiveSegmenterOptions(windowSegments: 2), LiveSegmenterOptions(maximumGap: 0),
        LiveSegmenterOptions(segmentTarget: 4, maximumSegment: 3),
    ])
    func options(options: LiveSegmenterOptions) {
        #expect(throws: LivePackagingError.self) { try LiveSegmenter(options: options) }
    }

    @Test("thousands of frames with random tracks, times, jumps and key flags: typed errors at most, parts that never overlap")
    func hostile() throws {
        var random = LiveMedia.Random(state: 3)
        for _ in 0 ..< 20 {
            var segmenter = try Self.segmenter()
            var events: [LiveSegmenter.Event] = []
            var time: Int64 = Int64.random(in: 0 ... 100_000, using: &random)
            for _ in 0 ..< 400 {
                switch Int.random(in: 0 ..< 100, using: &random) {
                case 0: time -= Int64.random(in: 1 ... 5000, using: &random)
                case 1: time += Int64.random(in: 5000 ... 20_000, using: &random)
                default: time += Int64.random(in: 0 ... 40, using: &random)
                }
                let sample = Bool.random(using: &random)
                    ? LiveMedia.videoFrame(time, key: Int.random(in: 0 ..< 10, using: &random) == 0,
                                           offset: Int32.random(in: -100 ... 100, using: &random))
                    : LiveMedia.audioFrame(time)
                events += try segmenter.append(sample)
            }
            events += segmenter.finish()
            Self.expectNoOverlap(events)
            for (part, bytes) in Self.parts(events) {
                #expect(!TrackFragment.all(in: bytes).isEmpty)
                #expect(part.duration <= 0.34 || TrackFragment.all(in: bytes)[0][0].durations.count == 1)
            }
            _ = segmenter.playlist(startingAt: Date()).text
        }
    }
}
