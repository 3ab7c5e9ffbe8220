import FeedCore
import Foundation
import NIOCore

/// One stream being published to this server: its publisher's tags go through a
/// ``LiveSegmenter``, whose init segment, parts and segments are kept in memory (the window
/// only: a removed segment's bytes go with it), and players' requests are answered from there,
/// blocking ones held until what they ask for exists (LL-HLS, RFC 8216bis §6.2.5.2).
///
/// The channel outlives its publisher: one that drops is detached (``detach(at:)``) and the
/// channel waits, its playlist still live, for the same stream's next publisher within the
/// reconnect window (``attach()``); the packager's timeline goes on across the gap (a
/// discontinuity). Every part also goes to the stream's ``LiveRecordingFile``, when it has one.
///
/// Thread-safe: the RTMP connection appends from its event loop, requests read and wait from
/// their tasks. A waiter is resumed as soon as a part closes that satisfies it, or when its hold
/// runs out, or when the stream ends.
final class LiveChannel: Sendable {
    /// The live stream's id.
    let streamID: Int64
    /// Its owner (a row's owner never changes): players' requests are checked against it
    /// without a catalog read.
    let owner: String?
    /// The longest a blocking request is held before it is answered 503.
    let hold: Duration

    /// What a held request waits for.
    enum Condition: Sendable {
        /// A playlist that ``LLHLSPlaylist/blockingReload(msn:part:)`` says is ready.
        case playlist(msn: Int, part: Int?)
        /// The file (a part, a segment, the init segment) named so.
        case file(String)
    }

    private struct Waiter {
        let condition: Condition
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var segmenter: LiveSegmenter
        /// Media time 0 on the wall clock (`EXT-X-PROGRAM-DATE-TIME`).
        var started: Date
        /// Each file once, as every response sends it (the buffers share their bytes: no copy
        /// per request).
        var files: [String: ByteBuffer] = [:]
        var playlist: LLHLSPlaylist {
            didSet { playlistText = ByteBuffer(string: playlist.text) }
        }
        /// ``playlist``'s text, made once per change rather than per request.
        var playlistText = ByteBuffer()
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var ended = false
        /// Closes the publisher's connection (set by the ingest; nil once it went).
        var disconnect: (@Sendable () -> Void)?
        /// Whether a publisher is attached now.
        var attached = false
        /// When the last publisher went, while none is attached.
        var detachedAt: Date?
        /// Where every part is recorded (nil: not recorded, or its writing failed).
        var recorder: LiveRecordingFile?
        /// Why recording stopped, when a write failed.
        var recordingError: String?
        /// Told once, when the first part exists (the stream plays); nil once told.
        var onFirstPart: (@Sendable () -> Void)?

        func isMet(_ condition: Condition) -> Bool {
            if ended { return true }
            switch condition {
            case let .playlist(msn, part): return playlist.blockingReload(msn: msn, part: part) != .hold
            case let .file(name): return files[name] != nil
            }
        }
    }

    private let state: Locked<State>

    /// A channel for stream `streamID` (owned by `owner`) whose media time 0 is `started`, parts
    /// cut as `options` say, recorded into `recorder` (which it closes when it finishes).
    init(streamID: Int64, owner: String?, options: LiveSegmenterOptions, started: Date, hold: Duration,
         recorder: LiveRecordingFile? = nil) throws(LivePackagingError) {
        self.streamID = streamID
        self.owner = owner
        self.hold = hold
        let segmenter = try LiveSegmenter(options: options)
        var initial = State(segmenter: segmenter, started: started, playlist: segmenter.playlist(startingAt: started))
        initial.recorder = recorder
        initial.playlistText = ByteBuffer(string: initial.playlist.text)
        state = Locked(initial)
    }

    /// Attaches a publisher: false when one is attached already or the stream ended.
    func attach() -> Bool {
        state.withLock { state in
            guard !state.ended, !state.attached else { return false }
            state.attached = true
            state.detachedAt = nil
            return true
        }
    }

    /// The publisher went at `time`: the channel waits for the next one (see ``detachedAt``).
    func detach(at time: Date) {
        state.withLock { state in
            state.attached = false
            state.disconnect = nil
            if !state.ended { state.detachedAt = time }
        }
    }

    /// When the last publisher went, while none is attached and the stream goes on.
    var detachedAt: Date? { state.withLock { $0.ended ? nil : $0.detachedAt } }

    /// Whether any media came (the init segment exists).
    var hasMedia: Bool { state.withLock { $0.files[LLHLSPlaylist.initURI] != nil } }

    /// Why recording stopped, when it did.
    var recordingError: String? { state.withLock { $0.recordingError } }

    /// Sets what is told, once, when the first part exists.
    func onFirstPart(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.onFirstPart = body }
    }

    /// Sets what ends the publisher's connection when the stream is ended from elsewhere.
    func onDisconnect(_ disconnect: @escaping @Sendable () -> Void) {
        state.withLock { $0.disconnect = disconnect }
    }

    /// Takes one of the publisher's FLV tag bodies (`type` 8 audio, 9 video) at `timestamp` ms.
    /// - Throws: ``LivePackagingError`` for what cannot be packaged (a codec other than
    ///   H.264/AAC, a damaged header): the caller ends the publish.
    func append(type: UInt8, body: [UInt8], timestamp: Int64) throws(LivePackagingError) {
        guard let tag = try FLVTag(type: type, body: body, timestamp: timestamp) else { return }
        let (resumed, first) = try state.withLock { state throws(LivePackagingError) -> ([CheckedContinuation<Bool, Never>], (@Sendable () -> Void)?) in
            guard !state.ended else { return ([], nil) }
            let events = try state.segmenter.append(tag)
            guard !events.isEmpty else { return ([], nil) }
            Self.apply(events, to: &state)
            // The first part made the stream playable: told once.
            var first: (@Sendable () -> Void)?
            if state.onFirstPart != nil, events.contains(where: { if case .part = $0 { true } else { false } }) {
                first = state.onFirstPart
                state.onFirstPart = nil
            }
            return (Self.takeMet(&state), first)
        }
        for waiter in resumed { waiter.resume(returning: true) }
        first?()
    }

    /// Ends the stream: the last part closes, the playlist gets `EXT-X-ENDLIST`, every held
    /// request is answered, and the publisher (if still connected) is disconnected.
    func finish() {
        let (resumed, disconnect) = state.withLock { state -> ([CheckedContinuation<Bool, Never>], (@Sendable () -> Void)?) in
            guard !state.ended else { return ([], nil) }
            Self.apply(state.segmenter.finish(), to: &state)
            state.ended = true
            state.recorder?.close()
            state.recorder = nil
            state.playlist = state.segmenter.playlist(startingAt: state.started)
            let all = state.waiters.values.map(\.continuation)
            state.waiters = [:]
            let disconnect = state.disconnect
            state.disconnect = nil
            return (all, disconnect)
        }
        for waiter in resumed { waiter.resume(returning: true) }
        disconnect?()
    }

    /// Whether the stream ended.
    var ended: Bool { state.withLock { $0.ended } }

    /// The stream's time at the end of its last part (`EXT-X-PROGRAM-DATE-TIME` there), while
    /// it plays.
    var liveEdge: Date? {
        state.withLock { $0.ended ? nil : $0.started.addingTimeInterval($0.playlist.end) }
    }

    /// The playlist of the moment.
    var playlist: LLHLSPlaylist { state.withLock { $0.playlist } }

    /// The playlist of the moment and its text (the text made once per change).
    var playlistAndText: (LLHLSPlaylist, ByteBuffer) { state.withLock { ($0.playlist, $0.playlistText) } }

    /// The bytes of `name` (`init.mp4`, a part, a segment) if it exists now.
    func file(_ name: String) -> ByteBuffer? { state.withLock { $0.files[name] } }

    /// Waits until `condition` is met (true) or ``hold`` passes (false); at once when it is met
    /// already or the stream ended. Cancelling the waiting task answers false.
    func wait(for condition: Condition) async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let met = state.withLock { state -> Bool in
                    if state.isMet(condition) { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return false
                }
                if met {
                    continuation.resume(returning: true)
                    return
                }
                let hold = self.hold
                Task { [weak self] in
                    try? await Task.sleep(for: hold)
                    self?.expire(id)
                }
            }
        } onCancel: {
            expire(id)
        }
    }

    /// Answers waiter `id` false if it is still waiting.
    private func expire(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
    }

    private static func apply(_ events: [LiveSegmenter.Event], to state: inout State) {
        for event in events {
            switch event {
            case let .initialization(bytes):
                state.files[LLHLSPlaylist.initURI] = ByteBuffer(bytes: bytes)
                record(bytes, &state)
            case let .part(part, bytes):
                state.files[part.uri] = ByteBuffer(bytes: bytes)
                record(bytes, &state)
            case let .segment(segment, bytes): state.files[segment.uri] = ByteBuffer(bytes: bytes)
            case let .removed(segment):
                state.files[segment.uri] = nil
                for part in segment.parts { state.files[part.uri] = nil }
            case .discontinuity: break
            }
        }
        state.playlist = state.segmenter.playlist(startingAt: state.started)
    }

    /// Appends to the recording; a failed write (a full disk) stops the recording, not the stream.
    private static func record(_ bytes: [UInt8], _ state: inout State) {
        guard let recorder = state.recorder else { return }
        do throws(LiveRecordingError) { try recorder.append(bytes) } catch {
            state.recordingError = error.description
            recorder.close()
            state.recorder = nil
        }
    }

    /// Removes and returns the waiters whose condition is met now.
    private static func takeMet(_ state: inout State) -> [CheckedContinuation<Bool, Never>] {
        let met = state.waiters.filter { state.isMet($0.value.condition) }
        for id in met.keys { state.waiters[id] = nil }
        return met.values.map(\.continuation)
    }
}
