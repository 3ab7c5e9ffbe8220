/// How samples become parts and parts segments (see ``LiveSegmenter``).
extension LiveSegmenter {
    /// Ticks of the lead track in `seconds`, rounded down (a hair of slack for 0.1-style decimals).
    func leadTicks(_ seconds: Double) -> Int64 {
        Int64((seconds * Double(writer!.timescale(lead)) + 1e-6).rounded(.down))
    }

    /// The target duration (`EXT-X-TARGETDURATION`): the segment target rounded up.
    var targetDuration: Int { max(Int(options.segmentTarget.rounded(.up)), 1) }

    /// A lead sample came: the one before it now has its duration and goes into a part; a video
    /// key frame starts a part, and past the segment target a segment (audio-only: any frame past
    /// it). The one before it starts a segment when, with it, the segment would last half a
    /// second past the target duration (key frames further apart than that): the segment's
    /// duration then rounds to the target duration.
    mutating func leadArrived(_ sample: QueuedSample, events: inout [Event]) {
        if var last = leadPending {
            last.duration = sample.decode - last.decode
            if !segmentParts.isEmpty || !partSamples.isEmpty,
               sample.decode - segmentStart >= leadTicks(Double(targetDuration) + 0.5) {
                closePart(events: &events)
                closeSegment(events: &events)
            }
            commit(last, events: &events)
        }
        // A key frame starts a part (INDEPENDENT: a player may join there), and past the segment target a segment.
        if sample.isKeyFrame {
            let started = !segmentParts.isEmpty || !partSamples.isEmpty
            let due = started && sample.decode - segmentStart >= leadTicks(options.segmentTarget)
            if due || lead == .video { closePart(events: &events) }
            if due { closeSegment(events: &events) }
        }
        leadPending = sample
    }

    /// An audio frame came while video leads: the frame before it now has its duration.
    mutating func followerArrived(_ sample: QueuedSample) {
        if !follower.isEmpty { follower[follower.count - 1].duration = sample.decode - follower[follower.count - 1].decode }
        follower.append(sample)
        // Video stalled: hold no more than the maximum gap of audio (the video's return is a discontinuity).
        let rate = Double(writer!.timescale(.audio))
        while let first = follower.first, Double(sample.decode - first.decode) / rate > options.maximumGap {
            follower.removeFirst()
        }
    }

    /// Puts `sample` (its duration known) into the open part, closing the part before it if it
    /// would not fit, and after it (with `closingAfter`) if one more sample of its length would not.
    mutating func commit(_ sample: QueuedSample, closingAfter: Bool = true, events: inout [Event]) {
        let duration = sample.duration ?? 0, target = leadTicks(options.partTarget)
        if !partSamples.isEmpty && partDuration + duration > target { closePart(events: &events) }
        if partSamples.isEmpty {
            partStart = sample.decode
            if segmentParts.isEmpty { segmentStart = sample.decode }
        }
        partSamples.append(sample)
        partDuration += duration
        lastLeadDuration = duration
        if closingAfter && partDuration + duration > target { closePart(events: &events) }
    }

    /// Writes the open part: its lead samples and the audio that decodes before its end (all the
    /// audio held, when `everything`).
    mutating func closePart(everything: Bool = false, events: inout [Event]) {
        guard let writer, !partSamples.isEmpty else { return }
        let end = partStart + partDuration
        var runs = [CMAFWriter.Run(track: lead, baseDecodeTime: UInt64(max(0, partStart)), samples: partSamples.map(Self.sample))]
        if lead == .video, let audio = writer.audio {
            let rate = Int64(audio.sampleRate), scale = Int64(CMAFWriter.videoTimescale)
            // Audio ticks against video ticks, multiplied out at full width: near the ±2^40 ms bound
            // of the input times, an audio time at 96 kHz and up times 90,000 does not fit in Int64.
            let count = everything ? follower.count
                : (follower.firstIndex { Self.product($0.decode, scale) >= Self.product(end, rate) } ?? follower.count)
            if count > 0 {
                var taken = Array(follower.prefix(count))
                follower.removeFirst(count)
                if taken[count - 1].duration == nil { taken[count - 1].duration = Int64(audio.samplesPerFrame) }
                audioFloor = max(audioFloor, taken[count - 1].decode + taken[count - 1].duration!)
                runs.append(CMAFWriter.Run(track: .audio, baseDecodeTime: UInt64(max(0, taken[0].decode)), samples: taken.map(Self.sample)))
            }
        }
        let bytes = writer.fragment(sequence: fragmentNumber, runs: runs)
        fragmentNumber &+= 1
        let part = LivePart(sequence: sequence, index: segmentParts.count,
                            duration: Double(partDuration) / Double(writer.timescale(lead)),
                            independent: lead == .audio || partSamples[0].isKeyFrame)
        if segmentParts.isEmpty && !part.independent { independentSegments = false }
        segmentParts.append(part)
        segmentBytes += bytes
        events.append(.part(part, bytes: bytes))
        leadEnd = end
        if lead == .video { videoFloor = max(videoFloor, end) } else { audioFloor = max(audioFloor, end) }
        partSamples = []
        partDuration = 0
        partStart = end
    }

    /// Writes the segment in progress, moves the window on, and gives back the files of
    /// segments long out of it.
    mutating func closeSegment(events: inout [Event]) {
        guard !segmentParts.isEmpty else { return }
        let segment = LiveSegment(sequence: sequence, start: segmentStartSeconds, parts: segmentParts,
                                  discontinuity: segmentDiscontinuity)
        events.append(.segment(segment, bytes: segmentBytes))
        longestSegment = max(longestSegment, segment.duration)
        segments.append(segment)
        while segments.count > options.windowSegments {
            let old = segments.removeFirst()
            if old.discontinuity { discontinuitySequence += 1 }
            retired.append(old)
        }
        while retired.count > options.windowSegments + 1 { events.append(.removed(retired.removeFirst())) }
        sequence += 1
        segmentParts = []
        segmentBytes = []
        segmentDiscontinuity = false
        segmentStart = leadEnd
    }

    /// Writes everything held: the last lead sample lasting as long as the one before it (or a
    /// frame: 1/30 s of video, an AAC frame), and all the audio, in a last part and segment.
    mutating func flush(events: inout [Event]) {
        if var last = leadPending {
            let frame = lead == .video ? Int64(CMAFWriter.videoTimescale / 30) : Int64(writer?.audio?.samplesPerFrame ?? 1024)
            last.duration = lastLeadDuration ?? frame
            leadPending = nil
            // Left open, so the audio held goes into a part with it.
            commit(last, closingAfter: false, events: &events)
        }
        closePart(everything: true, events: &events)
        closeSegment(events: &events)
        follower = []
        audioNext = nil
        lastLeadDuration = nil
    }

    /// `a × b` exactly, as the high and low halves of a 128-bit number: compared as a tuple, they
    /// order like the products.
    static func product(_ a: Int64, _ b: Int64) -> (high: Int64, low: UInt64) {
        a.multipliedFullWidth(by: b)
    }

    private static func sample(_ queued: QueuedSample) -> CMAFWriter.Sample {
        CMAFWriter.Sample(duration: UInt32(clamping: queued.duration ?? 0), compositionOffset: queued.composition,
                          isSync: queued.isKeyFrame, data: queued.payload)
    }
}
