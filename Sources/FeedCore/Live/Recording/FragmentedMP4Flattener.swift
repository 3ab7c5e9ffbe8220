import Foundation

/// Turns a live stream's recording, a fragmented MP4 (the init segment, then every part's `moof` +
/// `mdat` as ``CMAFWriter`` wrote them, appended to one file), into a progressive MP4 that any
/// player reads: `ftyp`, then `moov` with a complete sample table per track, then one `mdat` with
/// the media. Nothing is re-encoded: the samples' bytes are copied as they are, in fragment order,
/// one chunk per `trun`, and the init segment's `stsd` (avcC, esds …) is copied unchanged.
///
/// **The crash rule.** A server killed mid-write leaves a file cut anywhere. A fragment counts
/// only when its `moof` parses, the `mdat` after it is whole, and every sample's bytes lie inside
/// the file; the first fragment that is not whole ends the recording, and it and everything after
/// it are dropped (``Summary/droppedBytes``), so the output holds everything up to the last
/// complete part. Trailing garbage is dropped the same way. A damaged init segment (no `moov`, a
/// `moov` without `mvex`, a box in it that lies about its size) throws instead.
///
/// **Timelines.** Each track's samples keep their durations and composition offsets; a `tfdt`
/// later than where the track's previous run ended lengthens that run's last sample by the gap, so
/// later samples keep their times; an earlier one is ignored (the run follows on). A track that
/// starts later than the earliest one gets an edit list with an empty edit of the difference, so
/// the tracks stay in sync; no edit shifts composition offsets (a B-frame stream's first picture
/// shows at its offset, as it did in the live stream).
///
/// **Limits.** The file is never read whole: boxes are read with `pread`, the sample tables hold
/// a few numbers per sample, and media is copied a MiB at a time. A `moov` or `moof` over
/// ``maximumBoxSize`` is refused (a `moof` so large ends the recording); a `trun` without
/// per-sample fields may announce at most 2^20 samples. Only `vide` and `soun` tracks are kept,
/// and a track with no sample is left out. The file's size is taken when it is opened.
/// ```swift
/// let summary = try FragmentedMP4Flattener.flatten(recording, to: temporaryMP4)   // then rename it
/// ```
public enum FragmentedMP4Flattener {
    /// What a flattening kept.
    public struct Summary: Sendable, Equatable {
        /// How many whole fragments (`moof` + `mdat`) were read.
        public var fragments: Int
        /// How many video samples the output holds.
        public var videoSamples: Int
        /// How many audio samples the output holds.
        public var audioSamples: Int
        /// The longest track's duration in seconds, from the earliest track's start.
        public var duration: Double
        /// The bytes after the last whole box that could be read: a cut-off fragment or garbage.
        public var droppedBytes: Int64

        /// A summary.
        public init(fragments: Int, videoSamples: Int, audioSamples: Int, duration: Double, droppedBytes: Int64) {
            self.fragments = fragments
            self.videoSamples = videoSamples
            self.audioSamples = audioSamples
            self.duration = duration
            self.droppedBytes = droppedBytes
        }
    }

    /// The largest `moov` or `moof` read, in bytes (16 MiB; a live stream's are a few KiB).
    public static let maximumBoxSize: Int64 = 16 << 20

    /// Reads the fragmented MP4 at `source` and writes a progressive MP4 (`ftyp`, `moov` first,
    /// then one `mdat`) at `destination`, created or replaced; the caller renames it into place.
    /// A cut-off last fragment, or trailing garbage, is dropped. The recording is read whole
    /// before `destination` is opened, so a damaged one leaves it untouched; when writing fails,
    /// the file at `destination` is removed.
    /// - Throws: ``LiveRecordingError/missingFile(path:)``, ``LiveRecordingError/cannotRead(path:reason:)``,
    ///   ``LiveRecordingError/notFragmented(path:reason:)`` for a damaged or missing init segment,
    ///   ``LiveRecordingError/noMedia(path:)`` when no whole fragment holds a sample,
    ///   ``LiveRecordingError/cannotCreate(path:reason:)`` and ``LiveRecordingError/cannotWrite(path:reason:)``.
    public static func flatten(_ source: URL, to destination: URL) throws(LiveRecordingError) -> Summary {
        let file = try Source(path: source.path)
        let recording = try read(file)
        let tracks = outputTracks(recording.tracks, recording.tables)
        guard !tracks.isEmpty else { throw .noMedia(path: file.path) }
        try writeOutput(tracks, spans: recording.spans, from: file, to: destination.path)
        return Summary(fragments: recording.fragments,
                       videoSamples: tracks.filter(\.header.isVideo).reduce(0) { $0 + $1.table.count },
                       audioSamples: tracks.filter { !$0.header.isVideo }.reduce(0) { $0 + $1.table.count },
                       duration: tracks.map(\.seconds).max() ?? 0, droppedBytes: file.size - recording.end)
    }

    /// A range of the source copied into the output's `mdat` as it is.
    struct Span: Sendable, Equatable {
        var offset: Int64
        var length: Int64
    }

    /// What the whole fragments of a recording hold.
    struct Recording: Sendable {
        var tracks: [TrackHeader]
        var tables: [SampleTable]
        /// The media to copy, in order: the runs, neighbours joined.
        var spans: [Span] = []
        /// The bytes of the spans in all: the output's media data.
        var dataLength: Int64 = 0
        var fragments = 0
        /// One past the last whole box read.
        var end: Int64 = 0
    }

    /// Walks the top-level boxes of `file`: the `moov`, then fragments until one is not whole.
    /// - Throws: ``LiveRecordingError/notFragmented(path:reason:)`` when no whole `moov` with
    ///   `mvex` comes before the first fragment; ``LiveRecordingError/cannotRead(path:reason:)``.
    static func read(_ file: Source) throws(LiveRecordingError) -> Recording {
        var recording: Recording?
        var position: Int64 = 0
        scan: while true {
            switch try file.box(at: position) {
            case .end:
                break scan
            case .broken(let reason):
                guard recording != nil else { throw .notFragmented(path: file.path, reason: reason) }
                break scan
            case .box(let box) where box.type == "moov":
                // A second moov starts another recording: this one ends before it.
                guard recording == nil else { break scan }
                guard Int64(box.end - box.start) <= maximumBoxSize else {
                    throw .notFragmented(path: file.path, reason: "its moov of \(box.end - box.start) bytes is too large")
                }
                let moov = try file.read(at: Int64(box.start), count: box.end - box.start)
                let tracks = try tracks(inMoov: moov, headerLength: box.payload - box.start, path: file.path)
                recording = Recording(tracks: tracks, tables: Array(repeating: SampleTable(), count: tracks.count))
                position = Int64(box.end)
            case .box(let box) where box.type == "moof":
                guard var current = recording else {
                    throw .notFragmented(path: file.path, reason: "a moof at byte \(box.start) comes before any moov")
                }
                guard let (runs, end) = try wholeFragment(box, in: file, tracks: current.tracks) else { break scan }
                recording = nil     // so that the tables grow in place, not copied once a fragment
                for run in runs { add(run, to: &current) }
                current.fragments += 1
                recording = current
                position = end
            case .box(let box):
                // ftyp, styp, sidx, free, mfra …, and the mdat of a progressive file before its moov.
                position = Int64(box.end)
            }
            recording?.end = position
        }
        guard let recording else { throw .notFragmented(path: file.path, reason: "it has no moov") }
        return recording
    }

    /// The runs of the fragment whose `moof` is `moof`, and where its `mdat` ends, or nil when it
    /// is not whole: no whole `mdat` before the next `moof`, or
    /// ``runs(inMoof:headerLength:at:tracks:fileSize:)`` says so.
    private static func wholeFragment(_ moof: MP4Box, in file: Source,
                                      tracks: [TrackHeader]) throws(LiveRecordingError) -> (runs: [Run], end: Int64)? {
        guard Int64(moof.end - moof.start) <= maximumBoxSize else { return nil }
        var next = moof.end
        while true {
            guard case .box(let box) = try file.box(at: Int64(next)), box.type != "moof", box.type != "moov" else { return nil }
            next = box.end
            if box.type == "mdat" { break }
        }
        let bytes = try file.read(at: Int64(moof.start), count: moof.end - moof.start)
        let runs = runs(inMoof: bytes, headerLength: moof.payload - moof.start, at: Int64(moof.start), tracks: tracks, fileSize: file.size)
        return runs.map { ($0, Int64(next)) }
    }

    /// Adds `run` to its track's table and its bytes to the spans to copy.
    private static func add(_ run: Run, to recording: inout Recording) {
        guard !run.samples.isEmpty else { return }
        let start = recording.dataLength
        recording.tables[run.track].append(run, at: start)
        guard run.byteCount > 0 else { return }
        if let last = recording.spans.indices.last, recording.spans[last].offset + recording.spans[last].length == run.dataOffset {
            recording.spans[last].length += run.byteCount
        } else {
            recording.spans.append(Span(offset: run.dataOffset, length: run.byteCount))
        }
        recording.dataLength += run.byteCount
    }
}
