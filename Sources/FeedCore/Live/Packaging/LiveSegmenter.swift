/// Cuts a live stream into LL-HLS parts and segments of CMAF: feed it the publisher's FLV tags in
/// the order they came, and it returns the files to write (or delete) as ``Event``s, and the
/// playlist of the moment from ``playlist(startingAt:)``. Pure logic: timestamps only, no clock,
/// no I/O; one value per stream, used from one task at a time.
///
/// **Tracks.** Sequence headers come first; the first frame writes the init segment with the
/// tracks whose headers came, and fixes them (a later header for a new track, or a different
/// one for a known track, throws). Video leads when there is video: parts and segments are cut
/// on its timeline, and audio goes into the part its decode time falls in. Audio-only and
/// video-only streams work the same way.
///
/// **Parts.** A part is closed before the lead sample that would take it past the part target,
/// or right after one when a next sample of the same length would not fit; so it is never longer
/// than the target, except a single sample longer than it. A sample's duration is the distance
/// to the next sample of its track, so a part is closed only once the sample after it has come.
/// At a discontinuity or at the end, the last sample lasts as long as the one before it (an AAC
/// frame, `samplesPerFrame` samples). Audio decode times count frames from the first one, and
/// move to the publisher's timestamp only when it is more than a frame ahead (a gap), so the
/// millisecond rounding of FLV makes no jitter.
///
/// **Segments.** A segment closes at the first video key frame at or after the segment target,
/// so with key frames at most the segment target apart every segment starts with one: frames
/// before the first key frame are dropped, and audio before it too (at most
/// ``LiveSegmenterOptions/maximumGap`` of it, one frame a millisecond, is held for the key frame).
/// `EXT-X-TARGETDURATION` is the segment target rounded up and never changes (RFC 8216 §6.2.1),
/// so when key frames are further apart a segment closes before the frame that would make it last
/// half a second past that (rounded, it is then the target duration) and the next one starts
/// without a key frame (its first part is not `INDEPENDENT`). Audio-only segments close at the
/// first frame at or after the target. A video frame whose timestamp does not move on from the
/// one before decodes a millisecond after it, so frames that all carry one time are bounded by
/// the maximum key frame distance too.
///
/// **Discontinuities.** A timestamp that goes backwards, or forward by more than
/// ``LiveSegmenterOptions/maximumGap``, on either track, closes the segment in progress. The
/// stream resumes at the next key frame, on a timeline that goes on from where it stopped, in a
/// segment marked `EXT-X-DISCONTINUITY`; an ``Event/discontinuity(track:from:to:)`` says so.
/// Samples of the other track that come late on the old timeline (within the maximum gap after
/// its last time) are dropped, and so are samples on neither timeline. Not an error: a
/// publisher's clock going wrong should not end the stream. (RTMP timestamps wrap after 2^32 ms,
/// 49.7 days: the wrap is a discontinuity too.)
///
/// **Window.** The playlist lists the last ``LiveSegmenterOptions/windowSegments`` complete
/// segments. A segment that left it stays on disk for as many segments again plus one (RFC 8216
/// §6.2.2: its duration plus the playlist's), then comes back as ``Event/removed(_:)``.
/// ```swift
/// var segmenter = try LiveSegmenter()
/// for event in try segmenter.append(FLVTag(video: body, timestamp: ms)) { write or delete files }
/// let text = segmenter.playlist(startingAt: publishStart).text
/// ```
public struct LiveSegmenter: Sendable {
    /// The options it was made with.
    public let options: LiveSegmenterOptions
    /// The video configuration, once its sequence header came.
    public internal(set) var video: AVCConfiguration?
    /// The audio configuration, once its sequence header came.
    public internal(set) var audio: AACConfiguration?
    /// The writer, from the first frame on.
    public internal(set) var writer: CMAFWriter?
    /// The complete segments the playlist lists, oldest first.
    public internal(set) var segments: [LiveSegment] = []
    /// Whether ``finish()`` was called.
    public internal(set) var isFinished = false

    // The timeline: output milliseconds are input plus `offset`.
    var offset: Int64 = 0
    var lastInput: [LiveSample.Track: Int64] = [:]
    /// After a discontinuity, the last input time of the tracks that have not jumped yet.
    var staleInput: [LiveSample.Track: Int64] = [:]
    /// After a discontinuity, the input time the stream resumed around.
    var epoch: Int64?
    /// Before the first segment, and after a discontinuity until the next key frame.
    var waitingForStart = true
    /// Where the current timeline starts, in output milliseconds.
    var epochStart: Int64 = 0
    /// Audio held while waiting for the key frame that starts a segment.
    var preroll: [LiveSample] = []
    var discontinuityPending = false

    // Samples not yet in a part, in their track's timescale.
    var leadPending: QueuedSample?
    var partSamples: [QueuedSample] = []
    var partStart: Int64 = 0
    var partDuration: Int64 = 0
    var lastLeadDuration: Int64?
    var follower: [QueuedSample] = []
    /// Where the next audio frame is expected, in audio ticks.
    var audioNext: Int64?
    /// The earliest the next video sample may decode, in video ticks.
    var videoFloor: Int64 = 0
    /// The earliest the next audio sample may decode, in audio ticks.
    var audioFloor: Int64 = 0
    /// Where everything written so far ends, on the lead track.
    var leadEnd: Int64 = 0

    // The segment in progress.
    var sequence = 0
    var segmentStart: Int64 = 0
    var segmentParts: [LivePart] = []
    var segmentBytes: [UInt8] = []
    var segmentDiscontinuity = false
    var fragmentNumber: UInt32 = 1
    /// Segments out of the playlist whose files are kept a while longer.
    var retired: [LiveSegment] = []
    var discontinuitySequence = 0
    var longestSegment: Double = 0
    /// The last video key frame's decode time, in video ticks.
    var lastKeyFrame: Int64 = 0
    /// False from the first segment that starts without a key frame on, for the rest of the stream.
    var independentSegments = true

    /// A sample on its way into a part: times in its track's timescale.
    struct QueuedSample: Sendable {
        var decode: Int64
        var duration: Int64?
        var composition: Int32
        var isKeyFrame: Bool
        var payload: [UInt8]
    }

    /// A segmenter cutting as `options` say.
    /// - Throws: ``LivePackagingError/invalidOption(name:problem:)`` when an option is out of range.
    public init(options: LiveSegmenterOptions = LiveSegmenterOptions()) throws(LivePackagingError) {
        try options.validate()
        self.options = options
    }

    /// The track parts and segments are cut on: video when the stream has it.
    var lead: LiveSample.Track { writer?.video != nil ? .video : .audio }

    /// The init segment, once the first frame came.
    public var initSegment: [UInt8]? { writer?.initSegment() }

    /// Takes the next tag of the stream and returns what it produced, in order.
    /// - Throws: ``LivePackagingError/sampleBeforeConfiguration(track:)``,
    ///   ``LivePackagingError/trackAfterStart(track:)``, ``LivePackagingError/configurationChanged(track:)``,
    ///   ``LivePackagingError/badNALUnits(reason:)`` for a damaged frame,
    ///   ``LivePackagingError/keyFramesTooFarApart(seconds:)``,
    ///   ``LivePackagingError/timestampOutOfRange(_:)``, and
    ///   ``LivePackagingError/finished`` after ``finish()``. A tag that throws changes nothing:
    ///   the caller may skip it and go on.
    public mutating func append(_ tag: FLVTag) throws(LivePackagingError) -> [Event] {
        guard !isFinished else { throw .finished }
        switch tag {
        case .videoConfiguration(let configuration):
            if writer == nil { video = configuration; return [] }
            guard let video else { throw .trackAfterStart(track: .video) }
            guard video == configuration else { throw .configurationChanged(track: .video) }
            return []
        case .audioConfiguration(let configuration):
            if writer == nil { audio = configuration; return [] }
            guard let audio else { throw .trackAfterStart(track: .audio) }
            guard audio == configuration else { throw .configurationChanged(track: .audio) }
            return []
        case .endOfSequence:
            return []
        case .sample(let sample):
            return try append(sample)
        }
    }

    /// Takes the next frame of the stream (``append(_:)`` with a ``FLVTag/sample(_:)``).
    /// - Throws: as ``append(_:)``.
    public mutating func append(_ sample: LiveSample) throws(LivePackagingError) -> [Event] {
        guard !isFinished else { throw .finished }
        // FLV and RTMP times are 32-bit; the bound keeps every sum and product below on Int64.
        guard (-(1 << 40) ... 1 << 40).contains(sample.decodeTime) else { throw .timestampOutOfRange(sample.decodeTime) }
        switch sample.track {
        case .video:
            guard let video else { throw .sampleBeforeConfiguration(track: .video) }
            if let writer, writer.video == nil { throw .sampleBeforeConfiguration(track: .video) }
            try video.checkNALUnits(sample.payload)
        case .audio:
            guard audio != nil else { throw .sampleBeforeConfiguration(track: .audio) }
            if let writer, writer.audio == nil { throw .sampleBeforeConfiguration(track: .audio) }
        }
        var events: [Event] = []
        if writer == nil {
            let writer = CMAFWriter(video: video, audio: audio)
            self.writer = writer
            events.append(.initialization(bytes: writer.initSegment()))
        }
        let input = sample.decodeTime, gap = Int64(options.maximumGap * 1000)
        if let old = staleInput[sample.track] {
            // The other track jumped: this one's samples close after its old times are late ones of the old timeline.
            if input >= old && input - old <= gap { return events }
            staleInput[sample.track] = nil
        }
        if let last = lastInput[sample.track] {
            if input < last || input - last > gap {
                discontinuity(track: sample.track, from: last, to: input, events: &events)
            }
        } else if let epoch, abs(input - epoch) > gap {
            return events   // neither the old timeline nor the new one
        }
        // On the time the frame will get: frames whose times do not move on still count a millisecond each.
        if !waitingForStart, sample.track == .video, !sample.isKeyFrame,
           max((input + offset) * 90, videoFloor) - lastKeyFrame > Int64(options.maximumSegment * 90_000) {
            throw .keyFramesTooFarApart(seconds: options.maximumSegment)
        }
        lastInput[sample.track] = input

        if waitingForStart {
            if lead == .video && sample.track == .audio {
                // At most the maximum gap of audio, and one frame a millisecond of it: frames whose
                // times do not move on are dropped once it is full, not held without end.
                let stale = preroll.prefix { input - $0.decodeTime > gap }.count
                if stale > 0 { preroll.removeFirst(stale) }
                if Int64(preroll.count) < gap { preroll.append(sample) }
                return events
            }
            guard sample.isKeyFrame else { return events }
            start(at: sample)
            feed(sample, events: &events)
            for audio in preroll where audio.decodeTime >= sample.decodeTime { feed(audio, events: &events) }
            preroll = []
            return events
        }
        feed(sample, events: &events)
        return events
    }

    /// Ends the stream: the samples still held go into a last part and segment, and the
    /// playlist gets `EXT-X-ENDLIST`. Later calls return nothing.
    public mutating func finish() -> [Event] {
        guard !isFinished else { return [] }
        var events: [Event] = []
        if !waitingForStart { flush(events: &events) }
        isFinished = true
        return events
    }

    /// Closes the segment in progress and waits for a key frame on a new timeline.
    private mutating func discontinuity(track: LiveSample.Track, from: Int64, to: Int64, events: inout [Event]) {
        if !waitingForStart {
            flush(events: &events)
            discontinuityPending = true
        }
        events.append(.discontinuity(track: track, from: from, to: to))
        staleInput = lastInput
        staleInput[track] = nil
        lastInput = [:]
        epoch = to
        waitingForStart = true
        preroll = []
    }

    /// Starts a segment (the first, or the first after a discontinuity) with `sample`, a key
    /// frame or an audio frame: its time goes on from where the output ended.
    private mutating func start(at sample: LiveSample) {
        let scale = Int64(writer!.timescale(lead))
        epochStart = (leadEnd * 1000 + scale - 1) / scale
        offset = epochStart - sample.decodeTime
        audioNext = nil
        waitingForStart = false
        segmentDiscontinuity = discontinuityPending
        discontinuityPending = false
    }

    /// Puts `sample` on the output timeline and into the lead or follower queue.
    private mutating func feed(_ sample: LiveSample, events: inout [Event]) {
        let milliseconds = sample.decodeTime + offset
        var queued = QueuedSample(decode: 0, composition: 0, isKeyFrame: sample.isKeyFrame, payload: sample.payload)
        switch sample.track {
        case .video:
            queued.decode = max(milliseconds * 90, videoFloor)
            queued.composition = Int32(clamping: Int64(sample.compositionOffset) * 90)
            // FLV counts milliseconds: a frame on the same time as the one before comes a millisecond
            // after it, so a flood of such frames cannot outlast the maximum segment.
            videoFloor = queued.decode + 90
            if sample.isKeyFrame { lastKeyFrame = queued.decode }
        case .audio:
            guard milliseconds >= epochStart, let audio = writer?.audio else { return }
            let rate = Int64(audio.sampleRate), frame = Int64(audio.samplesPerFrame)
            let actual = (milliseconds * rate + 500) / 1000
            if let expected = audioNext {
                queued.decode = actual > expected + frame ? actual : expected
            } else {
                queued.decode = max(actual, audioFloor)
            }
            audioNext = queued.decode + frame
            audioFloor = queued.decode + 1
        }
        if sample.track == lead {
            leadArrived(queued, events: &events)
        } else {
            followerArrived(queued)
        }
    }
}
