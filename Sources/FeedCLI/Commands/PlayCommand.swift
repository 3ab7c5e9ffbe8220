import ArgumentParser
import FeedCore
import FeedPlayer
import FeedRemote
import Foundation

/// `feed play`: the feed as a full-screen vertical video player, or a headless scripted session.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play the feed's videos full screen in the terminal, like a phone feed.",
        discussion: """
            Keys: j/↓ next, k/↑ previous, space pause, ←/→ seek 5 s, m mute, l like, b bookmark, \
            c comments, a auto-advance, q or Ctrl-C quit. Three players are live at most: the \
            previous, current and next clips; the neighbours are prepared while one plays.

            A clip may be a local path (absolute, or relative to the feed file's folder; for \
            --feed - and the demo, to the current folder), a file:// URL, or an http(s) URL, \
            which plays only with --allow-network. A clip that cannot be opened shows an error \
            card and the feed goes on. --feed may itself be an http(s) URL (with \
            --allow-network); its relative clip paths are then URLs on the same server.

            Remote clips go through the clip cache (see `feed cache`): each is downloaded once, \
            the neighbours ahead of time as they are prepared, an interrupted download resumes, \
            and swiping back or playing again shows the clip from the disk. --no-cache streams \
            clips instead (FFmpeg's http protocol, no copy kept).

            --headless runs --script without a terminal and prints one JSON object per line for \
            each event (moved, loaded, prepared, first_frame with first_frame_ms, frame, evicted, \
            cancelled, failed), each with "live": the ids of the open players.

            EXAMPLES:
              feed play --feed clips.json
              feed play --roll
              feed play --headless --script "next,next,prev,pause,seek:+5,next" --json
            """
    )

    @OptionGroup var source: FeedSource

    @Flag(name: .long, help: "Play the camera roll's recordings instead of a feed.")
    var roll = false

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Stream remote clips instead of going through the clip cache.")
    var noCache = false

    @Flag(name: .long, help: "Go from the last video back to the first.")
    var wrap = false

    @Option(name: .long, parsing: .unconditional, help: "The feed position to start at (0-based).")
    var start = 0

    @Flag(name: .long, help: "Run --script without a terminal.")
    var headless = false

    @Option(name: .long, help: ArgumentHelp("Headless steps: next, prev, to:N, pause, resume, seek:±S, mute (toggles), unmute, like, bookmark.", valueName: "steps"))
    var script: String?

    @Flag(name: .long, help: "Headless: one JSON object per line (the only headless output).")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Headless: the frame box in pixels.", valueName: "WxH"))
    var size = "200x120"

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Headless: instead of a script, decode, scale and draw N frames of the first clip into a --terminal-sized screen and print the speed.", valueName: "N"))
    var measureRender: Int?

    @Option(name: .long, help: ArgumentHelp("With --measure-render: the terminal size in cells.", valueName: "COLSxROWS"))
    var terminal = "200x60"

    func validate() throws {
        if roll && source.feed != nil { throw ValidationError("give --feed or --roll, not both") }
        if headless && script == nil && measureRender == nil { throw ValidationError("--headless needs --script \"next,prev,…\"") }
        if measureRender != nil && !headless { throw ValidationError("--measure-render needs --headless") }
        if let measureRender, measureRender < 1 { throw ValidationError("--measure-render needs at least 1 frame") }
        if script != nil && !headless { throw ValidationError("--script needs --headless") }
        if start < 0 { throw ValidationError("--start must be 0 or more") }
        if box == nil { throw ValidationError("--size must look like 200x120, each side 2 to 16384") }
    }

    private var box: (width: Int, height: Int)? {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        // The frame box is a buffer of its own: as large as stack's largest output at most.
        guard parts.count == 2, (2...16384).contains(parts[0]), (2...16384).contains(parts[1]) else { return nil }
        return (parts[0], parts[1])
    }

    func run() async throws {
        let (items, videos, comments) = try await loadItems()
        let marks = MarkWriter(feed: roll ? nil : source.key)
        let mark: PlayController<MediaClipPlayer>.Marker = { step, position in await marks.apply(step, id: items[position].id) }
        if headless, let frames = measureRender {
            let cells = terminal.split(separator: "x").compactMap { Int($0) }
            guard cells.count == 2, (1...10_000).contains(cells[0]), (1...10_000).contains(cells[1]) else {
                throw ValidationError("--terminal must look like 200x60 (1…10000 each)")
            }
            guard let location = items.first?.location else { throw CommandFailure(description: "the feed has no video to play", kind: .invalidData) }
            let result = try await RenderMeasurement.run(location: location, columns: cells[0], rows: cells[1], frames: frames)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try StandardStream.output.write(Array(try encoder.encode(result)) + [0x0A])
        } else if headless {
            let commands = try PlayerScript.parse(script ?? "")
            let box = box ?? (200, 120)
            let options = MediaClipPlayer.Options(boxWidth: box.width, boxHeight: box.height, allowNetwork: source.allowNetwork)
            let session = HeadlessPlayback(items: items, options: options, wrap: wrap, fetcher: fetcher)
            try await session.run(start: start, commands: commands, command: mark, report: { record in
                PlayRecordLine.write(record)
            })
        } else {
            try await PlayScreen.run(items: items, videos: videos, comments: comments, allowNetwork: source.allowNetwork,
                                     fetcher: fetcher, wrap: wrap, start: start, saved: await marks.saved(), mark: mark)
        }
    }

    /// The clip cache remote clips go through; nil without --allow-network or with --no-cache.
    private var fetcher: (any ClipFetcher)? {
        source.allowNetwork && !noCache ? cache.cache : nil
    }

    /// The clips to play, their videos (for the overlay) and the feed's comments.
    private func loadItems() async throws -> ([HeadlessPlayback.Item], [Video], [Comment]) {
        if roll {
            return try await RollCommand.withRoll(.readOnly) { roll in
                let recordings = try await roll.recordings(limit: nil)
                let items = recordings.map { HeadlessPlayback.Item(id: String($0.id), source: roll.path(of: $0)) }
                return (items, recordings.map(roll.video(of:)), [])
            }
        }
        let feed = try await source.load()
        let items = feed.videos.map { video in
            HeadlessPlayback.Item(id: video.id.description, location: video.videoReference.map { feed.location(of: $0) })
        }
        return (items, feed.videos, feed.comments)
    }
}

/// Persists `like` and `bookmark` commands (keys or headless steps) in the roll's database:
/// the only place `feed play` writes or reads marks.
private struct MarkWriter: Sendable {
    /// The ``Feed/key`` of the feed played; nil when playing the roll itself: marks belong to
    /// feed videos, not recordings.
    var feed: String?

    /// The marks already saved, per feed video id (none when playing the roll, or unreadable).
    func saved() async -> [String: Set<VideoMark>] {
        guard let feed else { return [:] }
        return (try? await CatalogOptions.existingMarks(feed: feed)) ?? [:]
    }

    /// Nil when `step` is done (or needs nothing saved), else why it could not be saved.
    func apply(_ step: PlayerCommand, id: String) async -> String? {
        let mark: VideoMark
        switch step {
        case .like: mark = .like
        case .bookmark: mark = .bookmark
        default: return nil
        }
        guard let feed else { return "likes and bookmarks are for feed videos, not roll recordings" }
        do {
            _ = try await RollCommand.withRoll { try await $0.setMark(mark, true, videoID: id, feed: feed) }
            return nil
        } catch {
            return "cannot save the \(mark.rawValue): \(error)"
        }
    }
}
