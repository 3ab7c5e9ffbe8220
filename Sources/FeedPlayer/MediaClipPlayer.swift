import FeedCore
import Foundation

/// The real ``ClipPlayer``: decodes one clip through ``MediaReader`` and keeps its latest
/// frame, scaled to fit a box of pixels (for a terminal: columns × rows·2), ready to draw.
///
/// `prepare` opens the clip and decodes its first frame (checking task cancellation between
/// steps). Playback is pulled, not pushed: the caller's draw loop calls ``advance(now:)``,
/// which decodes the pictures that are due by the player's clock (skipping the ones it is
/// too late for) and converts only the newest into the reused frame. At the end the clip
/// loops, or ``isFinished`` turns true when `loops` is off. Thread-safe: every method takes
/// the player's lock, so the window's actor and a draw loop may call it concurrently.
public final class MediaClipPlayer: ControllablePlayer, @unchecked Sendable {
    /// How a player opens and scales its clip.
    public struct Options: Sendable, Equatable {
        /// The largest frame, in pixels; the clip is scaled to fit it, keeping its aspect.
        public var boxWidth: Int
        /// The largest frame height, in pixels.
        public var boxHeight: Int
        /// Whether http(s) URLs may be opened.
        public var allowNetwork: Bool
        /// Whether the clip starts again at its end (else it stops on its last frame).
        public var loops: Bool
        /// Decoder threads (0: FFmpeg's choice).
        public var threads: Int

        /// Options for a box of `boxWidth` × `boxHeight` pixels.
        public init(boxWidth: Int, boxHeight: Int, allowNetwork: Bool = false, loops: Bool = true, threads: Int = 1) {
            self.boxWidth = max(boxWidth, 2)
            self.boxHeight = max(boxHeight, 2)
            self.allowNetwork = allowNetwork
            self.loops = loops
            self.threads = threads
        }
    }

    /// The path or URL being played.
    public let source: String
    /// What `source` is: a file, or a URL (opened only when http(s) and the network is allowed).
    public let location: MediaLocation
    /// Where an http(s) `source` is fetched to before it is opened (nil: FFmpeg streams it).
    private let fetcher: (any ClipFetcher)?
    private static let graveyard = Graveyard()
    private let lock = NSLock()
    private var options: Options
    private var reader: MediaReader?
    private let scaler = Scaler()
    private var frame = Frame(width: 2, height: 2, format: .rgb24)
    private var pending: Picture?
    /// The picture behind the frame shown, kept so a resize can convert it again.
    private var shown: Picture?
    private var playing = false
    private var finished = false
    private var closed = false
    /// The clip time shown at `anchorInstant`; while playing, clip time runs with the clock.
    private var anchorTime = 0.0
    private var anchorInstant = ContinuousClock.now
    private var framesShown = 0

    /// A player for `source`: a local path, a `file://` URL, or (with `allowNetwork`) an http(s) URL,
    /// which `fetcher`, when given, turns into a local file first (a cache) instead of streaming it.
    /// Nothing is opened until `prepare`.
    public convenience init(source: String, options: Options, fetcher: (any ClipFetcher)? = nil) {
        self.init(location: MediaLocation(argument: source), options: options, fetcher: fetcher)
    }

    /// A player for `location` (a feed video's, from ``Feed/location(of:)``): a URL there is
    /// opened as a URL or refused, never taken for a file of the same name.
    public init(location: MediaLocation, options: Options, fetcher: (any ClipFetcher)? = nil) {
        self.location = location
        source = location.source
        self.options = options
        self.fetcher = fetcher
    }

    /// A player for a feed video's URL: `file://` URLs become paths, others are passed as they are.
    public convenience init(url: URL, options: Options, fetcher: (any ClipFetcher)? = nil) {
        self.init(source: url.isFileURL ? url.path : url.absoluteString, options: options, fetcher: fetcher)
    }

    /// Opens the clip and decodes its first frame.
    /// - Throws: `MediaError` (missing, not media, refused URL: see
    ///   ``MediaLocation/refusal(allowNetwork:)``), the fetcher's error, `CancellationError`, or
    ///   `MediaError.decodeFailed` for a clip without a single picture.
    public func prepare() async throws {
        Self.graveyard.empty()
        try Task.checkCancellation()
        let options = withLock { self.options }
        if let refusal = location.refusal(allowNetwork: options.allowNetwork) { throw refusal }
        var path = source
        if let fetcher, location.isRemote {
            path = try await fetcher.localFile(for: source)
            try Task.checkCancellation()
        }
        let reader = try MediaReader(path: path, allowNetwork: options.allowNetwork && path == source, threads: options.threads)
        try Task.checkCancellation()
        guard let first = try reader.nextPicture() else {
            throw MediaError.decodeFailed(path: source, reason: "the clip has no video frames")
        }
        try Task.checkCancellation()
        try withLock { () throws(MediaError) in
            guard !closed else { return }
            self.reader = reader
            frame = Self.fitted(reader.info, options)
            try scaler.convert(first, into: &frame, rotation: reader.info.rotation, path: source)
            shown = first
            anchorTime = first.time
            framesShown = 1
        }
    }

    /// Starts or resumes the clock from the frame shown.
    public func play() {
        withLock {
            guard !playing, reader != nil else { return }
            playing = true
            anchorTime = frame.time
            anchorInstant = .now
        }
    }

    /// Stops the clock, keeping the frame shown.
    public func pause() {
        withLock { pauseLocked(now: .now) }
    }

    /// Releases the decoder; the last frame stays readable. The decoder is freed later, by the
    /// next `prepare` of any player (which runs off the window's actor): the window closes
    /// players inside a move, and freeing FFmpeg's buffers or waking a thread there would
    /// delay the next clip's first frame.
    public func close() {
        let reader = withLock {
            closed = true
            playing = false
            pending = nil
            shown = nil
            defer { self.reader = nil }
            return self.reader
        }
        if let reader { Self.graveyard.bury(reader) }
    }

    /// What the clip holds, once prepared.
    public var info: MediaInfo? { withLock { reader?.info } }
    /// Whether the clock runs.
    public var isPlaying: Bool { withLock { playing } }
    /// True when the clip reached its end and does not loop.
    public var isFinished: Bool { withLock { finished } }
    /// How many frames were converted for display since `prepare` (the first one included).
    public var frameCount: Int { withLock { framesShown } }

    /// Whether the clip starts again at its end; off for auto-advance.
    public var loops: Bool {
        get { withLock { options.loops } }
        set { withLock { options.loops = newValue } }
    }

    /// Calls `body` with the frame to show (its `time` is the clip time, in seconds).
    public func withFrame<Result>(_ body: (Frame) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(frame)
    }

    /// The clip time of the frame shown, in seconds.
    public var time: Double { withLock { frame.time } }

    /// The clip time the clock says should be shown at `now`.
    public func clockTime(now: ContinuousClock.Instant = .now) -> Double {
        withLock { clockTimeLocked(now) }
    }

    /// Decodes the pictures due by `now` and converts the newest into the frame.
    /// - Returns: true when the frame changed.
    /// - Throws: `MediaError` when decoding fails.
    @discardableResult
    public func advance(now: ContinuousClock.Instant = .now) throws(MediaError) -> Bool {
        try withLock { () throws(MediaError) -> Bool in
            guard playing, let reader else { return false }
            var due: Picture?
            var wrapped = false
            while true {
                if pending == nil { pending = try reader.nextPicture() }
                guard let next = pending else {
                    // The end: loop once per call at most, so a clip without pictures cannot spin.
                    if options.loops && !wrapped {
                        try reader.seek(to: 0)
                        wrapped = true
                        anchorTime = 0
                        anchorInstant = now
                        continue
                    }
                    if !options.loops {
                        finished = true
                        pauseLocked(now: now)
                    }
                    break
                }
                guard next.time <= clockTimeLocked(now) else { break }
                due = next
                pending = nil
            }
            guard let due else { return false }
            try scaler.convert(due, into: &frame, rotation: reader.info.rotation, path: source)
            shown = due
            framesShown += 1
            return true
        }
    }

    /// Converts the next picture whatever the clock says (from the start again at the end),
    /// for measuring decode and draw speed. Returns false when the clip has no picture.
    /// - Throws: `MediaError` when decoding fails.
    public func stepFrame() throws(MediaError) -> Bool {
        try withLock { () throws(MediaError) -> Bool in
            guard let reader else { return false }
            var picture = pending
            if picture == nil { picture = try reader.nextPicture() }
            pending = nil
            if picture == nil {
                try reader.seek(to: 0)
                picture = try reader.nextPicture()
            }
            guard let picture else { return false }
            try scaler.convert(picture, into: &frame, rotation: reader.info.rotation, path: source)
            shown = picture
            framesShown += 1
            return true
        }
    }

    /// Moves by `seconds` (negative: back), clamped to the clip, and shows the frame there.
    /// - Throws: `MediaError` when seeking or decoding fails.
    public func seek(by seconds: Double, now: ContinuousClock.Instant = .now) throws(MediaError) {
        try withLock { () throws(MediaError) in
            guard let reader else { return }
            let duration = reader.info.duration > 0 ? reader.info.duration : .infinity
            let target = min(max(0, clockTimeLocked(now) + seconds), max(0, duration - 0.05))
            try reader.seek(to: target)
            pending = nil
            finished = false
            if let picture = try reader.nextPicture() {
                try scaler.convert(picture, into: &frame, rotation: reader.info.rotation, path: source)
                shown = picture
                framesShown += 1
            }
            anchorTime = frame.time
            anchorInstant = now
        }
    }

    /// Changes the box; the frame shown is converted again at the new size.
    public func resize(boxWidth: Int, boxHeight: Int) {
        withLock {
            guard options.boxWidth != max(boxWidth, 2) || options.boxHeight != max(boxHeight, 2) else { return }
            options.boxWidth = max(boxWidth, 2)
            options.boxHeight = max(boxHeight, 2)
            guard let reader else { return }
            let time = frame.time
            frame = Self.fitted(reader.info, options)
            frame.time = time
            if let shown { try? scaler.convert(shown, into: &frame, rotation: reader.info.rotation, path: source) }
        }
    }

    /// The size that fits the clip's upright display size into the box, even-sized, at least 2x2.
    public static func fit(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (max(boxWidth, 2), max(boxHeight, 2)) }
        let scale = min(Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        let even = { (value: Double) in max(2, Int(value) & ~1) }
        return (even(Double(width) * scale), even(Double(height) * scale))
    }

    private static func fitted(_ info: MediaInfo, _ options: Options) -> Frame {
        let size = fit(width: info.displayWidth, height: info.displayHeight, boxWidth: options.boxWidth, boxHeight: options.boxHeight)
        return Frame(width: size.width, height: size.height, format: .rgb24)
    }

    private func clockTimeLocked(_ now: ContinuousClock.Instant) -> Double {
        guard playing else { return anchorTime }
        let elapsed = now - anchorInstant
        return anchorTime + Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private func pauseLocked(now: ContinuousClock.Instant) {
        guard playing else { return }
        anchorTime = clockTimeLocked(now)
        anchorInstant = now
        playing = false
    }

    private func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// Decoders of closed players waiting to be freed off the move path.
private final class Graveyard: @unchecked Sendable {
    private let lock = NSLock()
    private var readers: [MediaReader] = []

    func bury(_ reader: MediaReader) {
        lock.withLock { readers.append(reader) }
    }

    /// Frees every buried decoder, outside the lock.
    func empty() {
        let dead = lock.withLock {
            defer { readers.removeAll() }
            return readers
        }
        _ = dead
    }
}
