import FeedCore
import FeedPlayer
import Foundation

/// The full-screen `feed play`: a ``PlayerWindow`` of ``MediaClipPlayer``s drawn with
/// half-blocks, an overlay, and keys. One loop reads keys, turns them into ``PlayerCommand``s
/// for the ``PlayController`` (the same one `--headless` scripts drive), advances the current
/// player by the clock, and writes each changed frame with its overlay in one write.
final class PlayScreen {
    private let items: [HeadlessPlayback.Item]
    private let videos: [Video]
    private let comments: [Comment]
    /// Likes and bookmarks per item id, as saved: read at the start, kept in step with `l` and `b`.
    private var saved: [String: Set<VideoMark>]
    private let terminal: RawTerminal
    private let window: PlayerWindow<MediaClipPlayer>
    private let controller: PlayController<MediaClipPlayer>
    private let box: SharedBox
    private var renderer: HalfBlockRenderer
    private var overlay = PlayOverlay()
    private var columns = 80, rows = 24
    private var current = -1
    private var dirty = true
    /// Clear the screen in the next frame's write (after a move, a resize, a new slot state).
    private var clearPending = true
    /// What the current slot held when last drawn: a change (loading → ready or failed) redraws.
    private var drawnState = ""
    private var lastComment = ContinuousClock.now

    /// Plays `items` until q, Ctrl-C or a signal; restores the terminal on every way out.
    /// `saved` holds the marks already saved per item id; `mark` saves a like or bookmark.
    static func run(items: [HeadlessPlayback.Item], videos: [Video], comments: [Comment],
                    allowNetwork: Bool, fetcher: (any ClipFetcher)?, wrap: Bool, start: Int, saved: [String: Set<VideoMark>],
                    mark: @escaping PlayController<MediaClipPlayer>.Marker) async throws {
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        let screen = try PlayScreen(items: items, videos: videos, comments: comments, terminal: terminal,
                                    allowNetwork: allowNetwork, fetcher: fetcher, wrap: wrap, saved: saved, mark: mark)
        try await screen.window.start(at: start)
        try await screen.loop()
        await screen.window.close()
    }

    private init(items: [HeadlessPlayback.Item], videos: [Video], comments: [Comment], terminal: RawTerminal,
                 allowNetwork: Bool, fetcher: (any ClipFetcher)?, wrap: Bool, saved: [String: Set<VideoMark>],
                 mark: @escaping PlayController<MediaClipPlayer>.Marker) throws {
        self.items = items
        self.videos = videos
        self.comments = comments
        self.terminal = terminal
        self.saved = saved
        let box = SharedBox()
        self.box = box
        renderer = HalfBlockRenderer(options: .init(colorMode: .detect(environment: ProcessInfo.processInfo.environment),
                                                    synchronizedOutput: false, tolerance: 6))
        window = try PlayerWindow(count: items.count, wrap: wrap) { position in
            guard let location = items[position].location else {
                throw MediaError.missingFile(path: "video \(items[position].id) has no video URL")
            }
            let size = box.size
            return MediaClipPlayer(location: location, options: .init(boxWidth: size.width, boxHeight: size.height,
                                                                  allowNetwork: allowNetwork), fetcher: fetcher)
        }
        controller = PlayController(window: window, mark: mark)
        resize()
    }

    private func resize() {
        (columns, rows) = terminal.size
        box.size = (columns, max(rows - PlayOverlay.reservedRows, 1) * 2)
        renderer.invalidate()
        dirty = true
        clearPending = true
    }

    private func loop() async throws {
        while !terminal.stopRequested {
            if terminal.takeResize() { resize() }
            if try await handle(terminal.readInput()) { return }
            let position = await window.slots.current
            if position != current {
                current = position
                overlay.heart = nil
                let marks = saved[items[position].id] ?? []
                overlay.liked = marks.contains(.like)
                overlay.bookmarked = marks.contains(.bookmark)
                dirty = true
                clearPending = true
                renderer.invalidate()
            }
            let state = await window.state(at: position)
            let kind = switch state {
            case .ready: "ready"
            case .failed: "failed"
            case .loading, .empty: "loading"
            }
            if kind != drawnState {
                drawnState = kind
                dirty = true
                clearPending = true
                renderer.invalidate()
            }
            overlay.paused = controller.isPaused
            if let player = state.player {
                player.loops = !controller.autoAdvance
                player.resize(boxWidth: box.size.width, boxHeight: box.size.height)
                if !player.isPlaying && !controller.isPaused && !player.isFinished { player.play() }
                if (try? player.advance()) == true { dirty = true }
                if player.isFinished && controller.autoAdvance { _ = try await controller.apply(.move(.next)) }
            }
            if overlay.tick(now: .now) { dirty = true }
            if overlay.showComments, !comments.isEmpty, ContinuousClock.now - lastComment >= .seconds(2) {
                lastComment = .now
                overlay.push(comments[overlay.commentCount % comments.count])
                dirty = true
            }
            if dirty { draw(state) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// What a key asks for: a command for the controller, or something only the screen shows.
    private enum KeyAction {
        case command(PlayerCommand)
        /// Space: pause, or resume when paused.
        case pauseOrResume
        /// `c`: show or hide the comments.
        case comments
    }

    /// The action of a key byte (arrows arrive as their final byte with the high bit set).
    private static func action(_ key: UInt8) -> KeyAction? {
        switch key {
        case UInt8(ascii: "q"), 0x03: .command(.quit)
        case UInt8(ascii: "j"), UInt8(ascii: "B") | 0x80: .command(.move(.next))
        case UInt8(ascii: "k"), UInt8(ascii: "A") | 0x80: .command(.move(.previous))
        case UInt8(ascii: " "): .pauseOrResume
        case UInt8(ascii: "C") | 0x80: .command(.seek(seconds: 5))
        case UInt8(ascii: "D") | 0x80: .command(.seek(seconds: -5))
        case UInt8(ascii: "m"): .command(.mute)
        case UInt8(ascii: "a"): .command(.autoAdvance)
        case UInt8(ascii: "c"): .comments
        case UInt8(ascii: "l"): .command(.like)
        case UInt8(ascii: "b"): .command(.bookmark)
        default: nil
        }
    }

    /// Acts on typed bytes; true means quit.
    private func handle(_ input: [UInt8]) async throws -> Bool {
        var index = 0
        while index < input.count {
            var key = input[index]
            index += 1
            // Arrows: ESC [ A/B/C/D.
            if key == 0x1B, index + 1 < input.count, input[index] == UInt8(ascii: "[") {
                key = input[index + 1] | 0x80
                index += 2
            }
            let command: PlayerCommand
            switch Self.action(key) {
            case nil: continue
            case .comments:
                overlay.showComments.toggle()
                lastComment = .now - .seconds(2)
                dirty = true
                continue
            case .pauseOrResume: command = controller.isPaused ? .resume : .pause
            case .command(let chosen): command = chosen
            }
            let position = await window.slots.current
            let outcome = try await controller.apply(command)
            show(outcome, of: command, id: items[position].id)
            if outcome == .quit { return true }
            dirty = true
        }
        return false
    }

    /// Brings the overlay in line with what a command on the item `id` did.
    private func show(_ outcome: PlayOutcome, of command: PlayerCommand, id: String) {
        overlay.paused = controller.isPaused
        overlay.muted = controller.isMuted
        overlay.autoAdvance = controller.autoAdvance
        switch command {
        case .like:
            overlay.heart = .now
            overlay.liked = outcome == .liked
            if outcome == .liked { saved[id, default: []].insert(.like) }
        case .bookmark:
            overlay.bookmarked = outcome == .bookmarked
            if outcome == .bookmarked { saved[id, default: []].insert(.bookmark) }
        default:
            break
        }
    }

    private func draw(_ state: SlotState<MediaClipPlayer>) {
        dirty = false
        var out: [UInt8] = []
        out.append(contentsOf: HalfBlockRenderer.beginSynchronizedUpdate)
        if clearPending {
            clearPending = false
            out.append(contentsOf: "\u{1B}[0m\u{1B}[2J".utf8)
        }
        var frameColumns = 0, progress = 0.0
        switch state {
        case .ready(let player):
            let duration = player.info?.duration ?? 0
            player.withFrame { frame in
                frameColumns = frame.width
                renderer.options.originColumn = max(1, (columns - frame.width) / 2 + 1)
                frame.bytes.withUnsafeBufferPointer { pixels in
                    _ = renderer.render(width: frame.width, height: frame.height, stride: frame.strides[0],
                                        pixels: pixels, into: &out)
                }
                progress = duration > 0 ? min(1, frame.time / duration) : 0
            }
        case .failed(let message):
            overlay.errorCard(message, columns: columns, rows: rows, into: &out)
        case .loading, .empty:
            overlay.text("loading…", row: rows / 2, column: max(1, columns / 2 - 4), into: &out)
        }
        let video = current < videos.count ? videos[current] : nil
        let left = renderer.options.originColumn
        let covered = overlay.draw(video: video, position: current, count: items.count, progress: progress,
                                   videoRight: left + frameColumns - 1, columns: columns, rows: rows, into: &out)
        // The overlay wrote over video cells: send them again with the next frame.
        let originRow = renderer.options.originRow
        renderer.invalidate(rows: (covered.lowerBound - originRow)..<(covered.upperBound - originRow), columns: 0..<frameColumns)
        out.append(contentsOf: HalfBlockRenderer.endSynchronizedUpdate)
        try? StandardStream.output.write(out)
    }
}

/// The box frames are scaled into, shared with the window's factory.
private final class SharedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = (width: 80, height: 46)
    var size: (width: Int, height: Int) {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
