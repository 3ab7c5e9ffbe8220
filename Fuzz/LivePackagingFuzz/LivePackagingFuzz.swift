import Foundation
@testable import FeedCore

/// libFuzzer entry point for feed's live packaging (pure Swift, no I/O): the FLV tag bodies an
/// RTMP publisher sends become CMAF parts and segments in `feed serve` (``FLVTag``,
/// ``AVCConfiguration`` and its ``H264SequenceParameterSet``, ``AACConfiguration``,
/// ``LiveSegmenter``, ``CMAFWriter``), and ``FLVFileReader`` reads the same tags from a file.
///
/// An input that starts with `FLV` is an FLV file: its tags go through ``FLVFileReader`` into a
/// ``LiveSegmenter`` whose options the header's six reserved flag bits pick (``segmenterOptions(_:)``:
/// 0, as ffmpeg writes, is the defaults). Any other input is a list of records, after one byte
/// that picks the options: a tag type (and how often the tag repeats, at the same time or 20 ms
/// apart: up to 4096 times, 25,000 tags an input, so long streams and floods of frames are
/// reached), a 48-bit signed timestamp in milliseconds (so times past FLV's 32 bits, and past the
/// segmenter's ±2^40 ms, are reached), a 24-bit body length, the body. Tags that throw are
/// skipped, as the segmenter allows; the stream is finished at the end.
/// Every input is also, whole, a video tag body, an audio tag body, an avcC record, an SPS and an
/// AudioSpecificConfig.
///
/// A crash, a trap, an ASan/LSan report or a libFuzzer timeout is a finding; so is a broken
/// invariant, which traps on purpose:
/// - every error is one line; the file reader's tags follow each other inside the file;
/// - a tag that throws changes nothing in the segmenter (every field compared; the queues of
///   samples by their count, first and last);
/// - what the segmenter holds is bounded by its options, whatever the timestamps: the audio held
///   while waiting for a key frame, and the audio held for the next part, at most one frame per
///   millisecond of the maximum gap; the segment in progress at most one lead frame per
///   millisecond of the maximum segment (so frames that all carry the same time cannot fill the
///   memory either);
/// - the init segment comes once, first; every part is a `moof` + `mdat` that parses: `mfhd`
///   numbers counting from 1, track 1 (the lead) first and not empty, `trun` data offsets and
///   sizes that add up to the `mdat`, each track's decode times never going back over what was
///   written; a part's duration is its lead samples' and at most the part target unless it is a
///   single sample; `INDEPENDENT` when it starts with a key frame (always for audio only);
/// - a segment is its parts, numbered in order, its bytes theirs concatenated; it starts with a
///   key frame; it is marked as a discontinuity exactly when the stream jumped after the last one
///   was written; the window keeps the last segments, at most as many as the options say, and
///   a segment is removed once, after it left the window;
/// - `finish()` ends the playlist (`EXT-X-ENDLIST`), a second one returns nothing, and a tag
///   after it throws `finished`.
///
/// Reproduce a finding with `LIVE_FUZZ_VERBOSE=1 .build-fuzz/live-packaging-fuzz FILE`: the
/// harness then says what each tag gave.
@_cdecl("LLVMFuzzerTestOneInput")
public func livePackagingFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if input.starts(with: "FLV".utf8) {
        packageFile(input)
    } else {
        packageRecords(input)
    }
    parseBodies(input)
    return 0
}

/// Segmenter options picked by the low seven bits of `selector`: part target (bits 0–1), segment
/// target (2–3), window (4), maximum gap (5) and maximum segment (6); 0 is the defaults.
func segmenterOptions(_ selector: UInt8) -> LiveSegmenterOptions {
    let segmentTarget = [1.0, 2, 1, 4][Int(selector >> 2 & 3)]
    return LiveSegmenterOptions(partTarget: [0.34, 0.2, 0.5, 0.25][Int(selector & 3)], segmentTarget: segmentTarget,
                                windowSegments: selector & 0x10 == 0 ? 8 : 3, maximumGap: selector & 0x20 == 0 ? 10 : 1,
                                maximumSegment: selector & 0x40 == 0 ? 20 : segmentTarget)
}

// MARK: - Inputs

func packageFile(_ input: [UInt8]) {
    var reader: FLVFileReader
    do {
        reader = try FLVFileReader(bytes: input, name: "input.flv")
    } catch {
        requireOneLine(error.description)
        return
    }
    // The flag bits FLV leaves reserved (all but audio, 0x04, and video, 0x01) pick the options.
    let flags = input[4]
    var run = SegmenterRun(options: segmenterOptions(flags >> 3 | (flags & 0x02) << 4))
    var end = 9
    while true {
        let tag: FLVFileReader.Tag?
        do {
            tag = try reader.next()
        } catch {
            requireOneLine(error.description)
            break
        }
        guard let tag else { break }
        require(tag.offset >= end && tag.offset + 11 + tag.body.count <= input.count, "tag at \(tag.offset) after \(end)")
        require(tag.type < 32 && (0 ... Int64(UInt32.max)).contains(tag.timestamp), "tag type \(tag.type) at \(tag.timestamp)")
        end = tag.offset + 11 + tag.body.count
        run.append(type: tag.type, body: tag.body, timestamp: tag.timestamp)
    }
    run.finish()
}

/// How many tags one input may feed the segmenter through repeated records.
let tagBudget = 25_000

func packageRecords(_ input: [UInt8]) {
    guard let selector = input.first else { return }
    var run = SegmenterRun(options: segmenterOptions(selector))
    var offset = 1, budget = tagBudget
    while input.count - offset >= 10, budget > 0 {
        // Bits 0–4: the tag type; 5–6: how many times the tag comes (1, 16, 256, 4096); 7: each
        // time 20 ms later (else at the same time).
        let head = input[offset]
        var time: Int64 = 0
        for index in offset + 1 ..< offset + 7 { time = time << 8 | Int64(input[index]) }
        time = (time << 16) >> 16  // 48-bit two's complement
        let length = Int(input[offset + 7]) << 16 | Int(input[offset + 8]) << 8 | Int(input[offset + 9])
        let body = offset + 10
        guard input.count - body >= length else { break }
        let tag = Array(input[body ..< body + length])
        let times = min(budget, 1 << (4 * Int(head >> 5 & 3)))
        for index in 0 ..< times {
            run.append(type: head & 0x1F, body: tag, timestamp: time + (head & 0x80 == 0 ? 0 : 20 * Int64(index)))
        }
        budget -= times
        offset = body + length
    }
    run.finish()
}

/// The whole input as each kind of body and configuration.
func parseBodies(_ input: [UInt8]) {
    for type in [FLVTag.videoType, FLVTag.audioType] {
        do {
            if case let .sample(sample)? = try FLVTag(type: type, body: input, timestamp: 0) {
                require(!sample.payload.isEmpty && sample.payload.count < input.count, "a sample of \(sample.payload.count) bytes")
            }
        } catch {
            requireOneLine(error.description)
        }
    }
    do {
        let configuration = try AVCConfiguration(record: input)
        require([1, 2, 4].contains(configuration.nalLengthSize), "NAL length size \(configuration.nalLengthSize)")
        require(!configuration.sequenceParameterSets.isEmpty && !configuration.pictureParameterSets.isEmpty, "no SPS or PPS")
        checkPicture(configuration.sequenceParameters)
        _ = configuration.codecString
        do { try configuration.checkNALUnits(input) } catch { requireOneLine(error.description) }
    } catch {
        requireOneLine(error.description)
    }
    do {
        checkPicture(try H264SequenceParameterSet(nal: input))
    } catch {
        requireOneLine(error.description)
    }
    do {
        let configuration = try AACConfiguration(config: input)
        require((1 ... 384_000).contains(configuration.sampleRate), "sample rate \(configuration.sampleRate)")
        require((1 ... 8).contains(configuration.channels), "\(configuration.channels) channels")
        require([960, 1024].contains(configuration.samplesPerFrame), "\(configuration.samplesPerFrame) samples a frame")
    } catch {
        requireOneLine(error.description)
    }
}

func checkPicture(_ sps: H264SequenceParameterSet) {
    let side = 1 ... H264SequenceParameterSet.maximumSide
    require(side.contains(sps.width) && side.contains(sps.height), "picture \(sps.width)x\(sps.height)")
    require((0 ... 3).contains(sps.chromaFormat), "chroma format \(sps.chromaFormat)")
}

// MARK: - The segmenter

/// A segmenter fed tag by tag, with every event checked.
struct SegmenterRun {
    var segmenter: LiveSegmenter
    var checker: EventChecker

    init(options: LiveSegmenterOptions) {
        do { segmenter = try LiveSegmenter(options: options) } catch { fatalError("harness: options \(options): \(error)") }
        checker = EventChecker(options: options)
    }

    mutating func append(type: UInt8, body: [UInt8], timestamp: Int64) {
        let tag: FLVTag
        do {
            guard let parsed = try FLVTag(type: type, body: body, timestamp: timestamp) else { return }
            tag = parsed
        } catch {
            say("tag \(type) at \(timestamp) ms: \(error)")
            requireOneLine(error.description)
            return
        }
        let before = SegmenterState(segmenter)
        do {
            let events = try segmenter.append(tag)
            say("tag \(type) at \(timestamp) ms: \(events.map(describe))")
            checker.check(events, segmenter)
            checker.checkHeld(segmenter)
        } catch {
            say("tag \(type) at \(timestamp) ms: \(error)")
            requireOneLine(error.description)
            require(SegmenterState(segmenter) == before, "a tag that threw (\(error)) changed the segmenter")
        }
    }

    mutating func finish() {
        let events = segmenter.finish()
        say("finish: \(events.map(describe))")
        checker.check(events, segmenter)
        require(segmenter.finish().isEmpty, "a second finish() returned events")
        let playlist = segmenter.playlist(startingAt: Date(timeIntervalSince1970: 1_800_000_000))
        let text = playlist.text
        require(text.hasPrefix("#EXTM3U\n") && text.hasSuffix("#EXT-X-ENDLIST\n"), "the finished playlist:\n\(text)")
        require(playlist.segments == segmenter.segments, "the playlist's segments are not the window")
        for (msn, part) in [(0, nil), (Int.max, Int.max), (Int.min, -1), (playlist.mediaSequence, 0)] as [(Int, Int?)] {
            require(playlist.blockingReload(msn: msn, part: part) == .ready, "an ended playlist holds a request")
        }
        do {
            _ = try segmenter.append(.sample(LiveSample(track: .audio, decodeTime: 0, isKeyFrame: true, payload: [1])))
            require(false, "a sample after finish() was taken")
        } catch {
            require(error == .finished, "a sample after finish() threw \(error)")
        }
    }
}

/// What a segmenter holds, to compare before and after a tag that threw: every field, the queues
/// of samples by their count, first and last (holding them whole would make each append copy
/// them), in stored properties rather than arrays (ASan makes every allocation slow).
struct SegmenterState: Equatable {
    struct Queued: Equatable {
        var decode: Int64, duration: Int64?, composition: Int32, isKeyFrame: Bool, bytes: Int
        init?(_ sample: LiveSegmenter.QueuedSample?) {
            guard let sample else { return nil }
            (decode, duration, composition, isKeyFrame, bytes) = (sample.decode, sample.duration, sample.composition,
                                                                   sample.isKeyFrame, sample.payload.count)
        }
    }

    var video, writerVideo: AVCConfiguration?
    var audio, writerAudio: AACConfiguration?
    var segments, retired: [LiveSegment]
    var segmentParts: [LivePart]
    var isFinished, waitingForStart, discontinuityPending, segmentDiscontinuity, hasWriter: Bool
    var offset, epochStart, partStart, partDuration, videoFloor, audioFloor, leadEnd, segmentStart: Int64
    var epoch, lastLeadDuration, audioNext: Int64?
    var lastInput, staleInput: [LiveSample.Track: Int64]
    var prerollCount: Int, prerollFirst, prerollLast: LiveSample?
    var leadPending, partFirst, partLast, followerFirst, followerLast: Queued?
    var partCount, followerCount, sequence, segmentBytes, discontinuitySequence: Int
    var fragmentNumber: UInt32
    var longestSegment: Double

    init(_ s: LiveSegmenter) {
        (video, writerVideo, audio, writerAudio) = (s.video, s.writer?.video, s.audio, s.writer?.audio)
        (segments, retired, segmentParts) = (s.segments, s.retired, s.segmentParts)
        (isFinished, waitingForStart, discontinuityPending, segmentDiscontinuity, hasWriter) =
            (s.isFinished, s.waitingForStart, s.discontinuityPending, s.segmentDiscontinuity, s.writer != nil)
        (offset, epochStart, partStart, partDuration) = (s.offset, s.epochStart, s.partStart, s.partDuration)
        (videoFloor, audioFloor, leadEnd, segmentStart) = (s.videoFloor, s.audioFloor, s.leadEnd, s.segmentStart)
        (epoch, lastLeadDuration, audioNext) = (s.epoch, s.lastLeadDuration, s.audioNext)
        (lastInput, staleInput) = (s.lastInput, s.staleInput)
        (prerollCount, prerollFirst, prerollLast) = (s.preroll.count, s.preroll.first, s.preroll.last)
        (leadPending, partFirst, partLast) = (Queued(s.leadPending), Queued(s.partSamples.first), Queued(s.partSamples.last))
        (followerFirst, followerLast) = (Queued(s.follower.first), Queued(s.follower.last))
        (partCount, followerCount, sequence) = (s.partSamples.count, s.follower.count, s.sequence)
        (segmentBytes, discontinuitySequence, fragmentNumber) = (s.segmentBytes.count, s.discontinuitySequence, s.fragmentNumber)
        longestSegment = s.longestSegment
    }
}

/// Follows the events of one segmenter and checks each file and number.
struct EventChecker {
    let options: LiveSegmenterOptions
    var initialized = false
    var fragment: UInt32 = 0
    var sequence = 0
    var parts: [LivePart] = []
    var partBytes: [UInt8] = []
    var produced: [LiveSegment] = []
    var removed = -1
    var marked = false
    /// The lead frames in the parts of the segment in progress.
    var segmentFrames = 0
    /// Where each track's written samples end, by track id.
    var ends: [UInt32: UInt64] = [:]

    init(options: LiveSegmenterOptions) { self.options = options }

    mutating func check(_ events: [LiveSegmenter.Event], _ segmenter: LiveSegmenter) {
        var previous: LiveSegmenter.Event?, closed = false
        for event in events {
            switch event {
            case let .initialization(bytes):
                require(!initialized && previous == nil, "a second or late init segment")
                require(bytes == segmenter.initSegment, "the init segment is not the writer's")
                require(boxes(bytes[...]).map(\.type) == ["ftyp", "moov"], "init segment boxes")
                initialized = true
            case let .part(part, bytes):
                require(initialized, "a part before the init segment")
                checkPart(part, bytes: bytes, writer: segmenter.writer!)
            case let .segment(segment, bytes):
                require(segment.sequence == sequence && segment.parts == parts && !parts.isEmpty,
                        "segment \(segment.sequence) of \(segment.parts.count) parts; expected \(sequence) of \(parts.count)")
                require(bytes == partBytes, "segment \(sequence) is not its parts' bytes")
                // Key frames further apart than the target duration and a half: the segment is cut
                // before it would round past the target, and the next starts without one; from then
                // on the playlist no longer says its segments are independent.
                require(parts[0].independent || !segmenter.independentSegments,
                        "segment \(sequence) does not start with a key frame, yet the playlist says segments are independent")
                require(segment.discontinuity == marked, "segment \(sequence) marked \(segment.discontinuity), expected \(marked)")
                produced.append(segment)
                closed = true
                sequence += 1
                segmentFrames = 0
                parts = []
                partBytes = []
                marked = false
            case let .removed(segment):
                require(segment.sequence > removed && produced.contains(segment), "removed \(segment.sequence) after \(removed)")
                require(!segmenter.segments.contains(segment), "removed \(segment.sequence) while in the window")
                removed = segment.sequence
            case .discontinuity:
                // The segment in progress was closed just before (with what that removed): the next one is marked.
                if closed { marked = true }
            }
            previous = event
        }
        let window = segmenter.segments
        require(window.count == min(options.windowSegments, produced.count) && window == Array(produced.suffix(window.count)),
                "the window holds \(window.map(\.sequence)) of \(produced.count) segments")
    }

    /// What the segmenter holds stays within its options (see the harness's summary).
    func checkHeld(_ segmenter: LiveSegmenter) {
        let gap = Int(options.maximumGap * 1000), segment = Int(options.maximumSegment * 1000)
        require(segmenter.preroll.count <= gap + 1, "\(segmenter.preroll.count) audio frames held waiting for a key frame")
        require(segmenter.follower.count <= gap + 1, "\(segmenter.follower.count) audio frames held for the next part")
        let frames = segmentFrames + segmenter.partSamples.count + (segmenter.leadPending == nil ? 0 : 1)
        require(frames <= segment + 1, "\(frames) frames in the segment in progress")
    }

    mutating func checkPart(_ part: LivePart, bytes: [UInt8], writer: CMAFWriter) {
        require(part.sequence == sequence && part.index == parts.count, "part \(part.sequence).\(part.index), expected \(sequence).\(parts.count)")
        let top = boxes(bytes[...])
        require(top.map(\.type) == ["moof", "mdat"], "part boxes \(top.map(\.type))")
        let moof = top[0], mdat = top[1]
        var runs: [(track: UInt32, base: UInt64, samples: [(duration: UInt32, size: UInt32, flags: UInt32)], offset: UInt32)] = []
        for box in boxes(moof.body) {
            switch box.type {
            case "mfhd":
                let number = u32(box.body, 4)
                require(number == fragment + 1, "mfhd \(number) after \(fragment)")
                fragment = number
            case "traf":
                var track: UInt32 = 0, base: UInt64 = 0
                for inner in boxes(box.body) {
                    switch inner.type {
                    case "tfhd": track = u32(inner.body, 4)
                    case "tfdt": base = UInt64(u32(inner.body, 4)) << 32 | UInt64(u32(inner.body, 8))
                    case "trun":
                        let count = Int(u32(inner.body, 4)), flags = u32(inner.body, 0) & 0xFF_FFFF
                        let stride = flags & 0x800 != 0 ? 16 : 12
                        require(inner.body.count == 12 + count * stride, "trun of \(count) samples in \(inner.body.count) bytes")
                        let samples = (0 ..< count).map { index in
                            let at = 12 + index * stride
                            return (u32(inner.body, at), u32(inner.body, at + 4), u32(inner.body, at + 8))
                        }
                        runs.append((track, base, samples, u32(inner.body, 8)))
                    default: require(false, "a \(inner.type) box in traf")
                    }
                }
            default: require(false, "a \(box.type) box in moof")
            }
        }
        require(runs.first?.track == 1 && !runs[0].samples.isEmpty, "the lead run is missing")
        var dataOffset = UInt32(moof.size + 8)
        for run in runs {
            require(run.offset == dataOffset, "trun data offset \(run.offset), expected \(dataOffset)")
            dataOffset += run.samples.reduce(0) { $0 + $1.size }
            require(run.base >= ends[run.track, default: 0], "track \(run.track) goes back from \(ends[run.track, default: 0]) to \(run.base)")
            ends[run.track] = run.base + run.samples.reduce(0) { $0 + UInt64($1.duration) }
        }
        require(Int(dataOffset) == moof.size + mdat.size, "mdat of \(mdat.size) bytes for samples ending at \(dataOffset)")
        let lead = runs[0].samples
        let ticks = lead.reduce(0) { $0 + Int64($1.duration) }
        let timescale = Double(writer.timescale(writer.video != nil ? .video : .audio))
        require(part.duration == Double(ticks) / timescale, "part duration \(part.duration) for \(ticks) ticks")
        require(part.duration <= options.partTarget + 1e-9 || lead.count == 1,
                "part \(part.sequence).\(part.index) of \(lead.count) samples lasts \(part.duration) s; the target is \(options.partTarget)")
        let startsWithKeyFrame = writer.video == nil || lead[0].flags == CMAFWriter.syncFlags
        require(part.independent == startsWithKeyFrame, "part \(part.sequence).\(part.index) independent: \(part.independent)")
        parts.append(part)
        partBytes += bytes
        segmentFrames += lead.count
    }
}

/// The boxes in `bytes`, which must be whole ones back to back.
func boxes(_ bytes: ArraySlice<UInt8>) -> [(type: String, size: Int, body: ArraySlice<UInt8>)] {
    var found: [(type: String, size: Int, body: ArraySlice<UInt8>)] = []
    var at = bytes.startIndex
    while at < bytes.endIndex {
        require(bytes.endIndex - at >= 8, "a box header cut short")
        let size = Int(u32(bytes, at - bytes.startIndex))
        require(size >= 8 && size <= bytes.endIndex - at, "a box of \(size) bytes")
        let type = String(decoding: bytes[at + 4 ..< at + 8], as: UTF8.self)
        found.append((type, size, bytes[at + 8 ..< at + size]))
        at += size
    }
    return found
}

/// The big-endian 32-bit number at `offset` from the start of `bytes`.
func u32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
    let at = bytes.startIndex + offset
    require(at + 4 <= bytes.endIndex, "a field past the end of its box")
    return bytes[at ..< at + 4].reduce(0) { $0 << 8 | UInt32($1) }
}

// MARK: - Invariants

let verbose = getenv("LIVE_FUZZ_VERBOSE") != nil

/// Writes `line` to stderr when LIVE_FUZZ_VERBOSE is set.
func say(_ line: @autoclosure () -> String) {
    guard verbose else { return }
    let text = Array((line() + "\n").utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// An event, short: bytes counted, not listed.
func describe(_ event: LiveSegmenter.Event) -> String {
    switch event {
    case let .initialization(bytes): "init(\(bytes.count))"
    case let .part(part, bytes): "part \(part.sequence).\(part.index) \(part.duration) s\(part.independent ? " independent" : "") (\(bytes.count))"
    case let .segment(segment, bytes): "segment \(segment.sequence) \(segment.duration) s\(segment.discontinuity ? " discontinuity" : "") (\(bytes.count))"
    case let .removed(segment): "removed \(segment.sequence)"
    case let .discontinuity(track, from, to): "discontinuity \(track) \(from) -> \(to)"
    }
}

/// Traps with `message` unless `condition` holds: a broken invariant is a finding.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant: \(message())") }
}

/// Every error message is one line.
func requireOneLine(_ text: String) {
    require(!text.isEmpty && !text.contains("\n"), "error text: \(text.debugDescription)")
}
