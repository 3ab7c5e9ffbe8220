import Testing
@testable import FeedCore

/// What `live-packaging-fuzz` (Fuzz/LivePackagingFuzz) found in the segmenter, each kept as the
/// smallest stream that showed it.
@Suite("LiveSegmenter: fuzz findings")
struct LiveSegmenterFuzzRegressionTests {
    /// AAC-LC, 96 kHz, mono: the highest rate of the sampling frequency table.
    static let audio96k = try! AACConfiguration(config: [0x10, 0x08])

    @Test("the first audio frame 2^40 ms from the video, at 96 kHz, waits for its time instead of overflowing Int64 when a part closes")
    func farAudioAtHighRate() throws {
        // Given video from 0 ms and one 96 kHz audio frame near the segmenter's 2^40 ms bound,
        var segmenter = try LiveSegmenter()
        _ = try segmenter.append(.videoConfiguration(CMAFWriterTests.video))
        _ = try segmenter.append(.audioConfiguration(Self.audio96k))
        var events = try segmenter.append(LiveMedia.videoFrame(0, key: true))
        let far = (Int64(1) << 40) - 1000
        events += try segmenter.append(LiveMedia.audioFrame(far))

        // when enough video comes to close parts (each compares the audio's time with the part's end),
        for index in 1 ... 20 { events += try segmenter.append(LiveMedia.videoFrame(Int64(index) * 40, key: false)) }
        let before = LiveSegmenterTests.trafs(events)
        events += segmenter.finish()

        // then the parts before the end hold only video, and the audio comes last, at its own time.
        #expect(!before.isEmpty && before.allSatisfy { $0.trackID == 1 })
        let audio = LiveSegmenterTests.trafs(events).filter { $0.trackID == 2 }
        #expect(audio.map(\.baseDecodeTime) == [UInt64(far) * 96])
        LiveSegmenterTests.expectNoOverlap(events)
    }

    @Test("audio frames that all carry one time, while no key frame comes, are held one a millisecond of the maximum gap at most")
    func audioFloodBeforeKeyFrame() throws {
        // Given a stream with video that has not sent its key frame yet, and a maximum gap of 1 s,
        var segmenter = try LiveSegmenterTests.segmenter(options: LiveSegmenterOptions(maximumGap: 1))
        _ = try segmenter.append(LiveMedia.audioFrame(100))

        // when 5,000 audio frames come, all at the same time,
        for _ in 0 ..< 5000 { #expect(try segmenter.append(LiveMedia.audioFrame(100)).count <= 1) }

        // then 1,000 are held for the key frame, and they go out with it (the last second of them:
        // after the key frame, audio held for the next part is bounded by the maximum gap too).
        #expect(segmenter.preroll.count == 1000)
        var events = try segmenter.append(LiveMedia.videoFrame(100, key: true))
        events += segmenter.finish()
        #expect(LiveSegmenterTests.trafs(events).filter { $0.trackID == 2 }.flatMap(\.durations).count == 44)  // 1 s at 44.1 kHz
        LiveSegmenterTests.expectNoOverlap(events)
    }

    @Test("video frames that all carry one time are a millisecond apart, so the maximum segment bounds a segment without key frames")
    func videoFloodWithoutKeyFrames() throws {
        // Given a video-only stream whose maximum segment is 1 s, started by a key frame,
        var segmenter = try LiveSegmenterTests.segmenter(audio: false, options: LiveSegmenterOptions(maximumSegment: 1))
        var events = try segmenter.append(LiveMedia.videoFrame(0, key: true))

        // when 3,000 more frames come, all at that time and none a key frame,
        var refused = 0
        for _ in 0 ..< 3000 {
            do throws(LivePackagingError) { events += try segmenter.append(LiveMedia.videoFrame(0, key: false)) } catch {
                #expect(error == .keyFramesTooFarApart(seconds: 1))
                refused += 1
            }
        }
        events += segmenter.finish()

        // then the frames of the first second (one a millisecond) are kept and the rest refused.
        #expect(refused == 2000)
        let durations = LiveSegmenterTests.trafs(events).flatMap(\.durations)
        #expect(durations.count == 1001 && durations.allSatisfy { $0 == 90 })
        #expect(LiveSegmenterTests.segments(events).map { ($0.duration * 1000).rounded() } == [1001])
    }
}
