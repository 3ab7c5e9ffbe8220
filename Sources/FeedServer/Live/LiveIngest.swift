import FeedCore
import Foundation

/// What the RTMP ingest asks of the server when a publisher sends a key, and tells it when the
/// publisher goes: the catalog's rows (``LiveStreams``), this server's channels (``LiveHub``) and
/// the webhooks of each step (`live.connected`, `live.active`, `live.disconnected`).
struct LiveIngest: Sendable {
    let streams: LiveStreams
    let hub: LiveHub
    /// Where each stream is recorded while live (the roll's folders); nil records nothing.
    let paths: RollPaths?
    /// Where `live.*` events go (nil: nowhere).
    let emit: (@Sendable (WebhookEvent) async -> Void)?
    let clock: @Sendable () -> Date
    let log: (@Sendable (String) -> Void)?
    /// This server's base URL as the other servers of the catalog reach it (``LiveStream/origin``).
    let origin: @Sendable () -> String

    /// The RTMP application every stream is published to: `rtmp://HOST:PORT/live/KEY`.
    static let application = "live"

    /// Why a publish is refused, in the words the publisher is told (`NetStream.Publish.BadName`).
    enum Refusal: Error, Equatable {
        case application(String)
        case unknownKey
        case ended(Int64)
        case busy(Int64)
        case catalog(String)
        /// The server cannot keep the stream (its recording file cannot be made: a full or
        /// read-only disk) or package it.
        case server(String)

        var description: String {
            switch self {
            case let .application(app): "publish to the application \"\(LiveIngest.application)\", not \"\(app)\""
            case .unknownKey: "no live stream has this stream key"
            case let .ended(id): "live stream \(id) has ended"
            case let .busy(id): "live stream \(id) already has a publisher"
            case let .catalog(reason): "the catalog cannot be read: \(reason)"
            case let .server(reason): "the server cannot take the stream: \(reason)"
            }
        }
    }

    /// Accepts a publisher of `key` to `app`. A stream whose channel here waits for its publisher
    /// (within the reconnect window) takes it back; an idle one gets a channel and its recording
    /// file, and its row goes `active` (compare-and-set, so of two servers one wins; the file's
    /// lock already keeps a second server sharing the media folder out).
    func begin(app: String, key: String) async -> Result<(LiveStream, LiveChannel), Refusal> {
        guard app == Self.application else { return .failure(.application(app)) }
        let found: LiveStream?
        do { found = try await streams.store.liveStream(key: key) } catch { return .failure(.catalog(error.description)) }
        guard let stream = found else { return .failure(.unknownKey) }
        guard stream.state != .ended else { return .failure(.ended(stream.id)) }
        if let waiting = hub.channel(stream.id), !waiting.ended {
            guard waiting.attach() else { return .failure(.busy(stream.id)) }
            log?("live stream \(stream.id): publisher back")
            await emit?(.live(.liveConnected, stream))
            return .success((stream, waiting))
        }
        guard stream.state == .idle else { return .failure(.busy(stream.id)) }
        let now = clock()
        var recorder: LiveRecordingFile?
        if let paths {
            do {
                guard let opened = try LiveRecordingFile.open(stream: stream.id, in: paths) else { return .failure(.busy(stream.id)) }
                recorder = opened
            } catch {
                return .failure(.server(error.description))
            }
        }
        let channel: LiveChannel
        do {
            guard let opened = try hub.open(stream.id, owner: stream.owner, started: now, recorder: recorder), opened.attach() else {
                recorder?.close()
                return .failure(.busy(stream.id))
            }
            channel = opened
        } catch {
            recorder?.close()
            return .failure(.server(error.description))
        }
        var active = stream
        active.state = .active
        active.wentLiveAt = now
        active.error = nil
        active.origin = origin()
        let accepted: Bool
        do { accepted = try await streams.store.updateLiveStream(active, ifState: stream.state) } catch {
            discard(channel)
            return .failure(.catalog(error.description))
        }
        guard accepted else {
            discard(channel)
            return .failure(.busy(stream.id))
        }
        channel.onFirstPart { [emit, store = streams.store, id = stream.id] in
            guard let emit else { return }
            Task {
                guard let now = try? await store.liveStream(id: id) else { return }
                await emit(.live(.liveActive, now))
            }
        }
        log?("live stream \(stream.id): publishing")
        await emit?(.live(.liveConnected, active))
        return .success((active, channel))
    }

    /// The publisher of `stream` went (it unpublished, its connection closed, or its media was
    /// refused with `error`). A channel that had media waits for the publisher to come back
    /// within the window (the row stays `active`; ``LiveHub/sweep(now:)`` ends it after). One
    /// that never had media is closed and the row goes back to `idle`, ready for the next
    /// publish (a publisher refused for its codec can try again with other settings).
    func end(_ stream: LiveStream, channel: LiveChannel, error: String? = nil) async {
        guard !channel.ended else { return }
        if !channel.hasMedia {
            discard(channel)
            var idle = stream
            idle.state = .idle
            idle.error = error
            _ = try? await streams.store.updateLiveStream(idle, ifState: .active)
            log?("live stream \(stream.id): publisher gone before any media\(error.map { " (\($0))" } ?? "")")
            return
        }
        channel.detach(at: clock())
        var now = (try? await streams.store.liveStream(id: stream.id)) ?? stream
        if let error, now.state == .active {
            now.error = error
            _ = try? await streams.store.updateLiveStream(now, ifState: .active)
        }
        log?("live stream \(stream.id): publisher gone\(error.map { " (\($0))" } ?? ""); waiting \(Int(hub.reconnectWindow)) s for it")
        await emit?(.live(.liveDisconnected, now))
    }

    /// Ends a channel that never became a stream, and removes its (empty) recording.
    private func discard(_ channel: LiveChannel) {
        // Removed while still locked, so no other server opens it in between.
        if let paths { try? FileManager.default.removeItem(at: LiveRecordingFile.url(of: channel.streamID, in: paths)) }
        channel.finish()
    }
}
