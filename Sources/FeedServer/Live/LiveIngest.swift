import FeedCore
import Foundation

/// What the RTMP ingest asks of the server when a publisher sends a key, and tells it when the
/// publisher goes: the catalog's rows (``LiveStreams``) and this server's channels (``LiveHub``).
struct LiveIngest: Sendable {
    let streams: LiveStreams
    let hub: LiveHub
    let clock: @Sendable () -> Date
    let log: (@Sendable (String) -> Void)?

    /// The RTMP application every stream is published to: `rtmp://HOST:PORT/live/KEY`.
    static let application = "live"

    /// Why a publish is refused, in the words the publisher is told (`NetStream.Publish.BadName`).
    enum Refusal: Error, Equatable {
        case application(String)
        case unknownKey
        case ended(Int64)
        case busy(Int64)
        case catalog(String)

        var description: String {
            switch self {
            case let .application(app): "publish to the application \"\(LiveIngest.application)\", not \"\(app)\""
            case .unknownKey: "no live stream has this stream key"
            case let .ended(id): "live stream \(id) has ended"
            case let .busy(id): "live stream \(id) already has a publisher"
            case let .catalog(reason): "the catalog cannot be read: \(reason)"
            }
        }
    }

    /// Accepts a publisher of `key` to `app`: the stream's row goes `active` (compare-and-set, so
    /// of two servers one wins) and this server opens its channel.
    func begin(app: String, key: String) async -> Result<(LiveStream, LiveChannel), Refusal> {
        guard app == Self.application else { return .failure(.application(app)) }
        let found: LiveStream?
        do { found = try await streams.store.liveStream(key: key) } catch { return .failure(.catalog(error.description)) }
        guard let stream = found else { return .failure(.unknownKey) }
        guard stream.state != .ended else { return .failure(.ended(stream.id)) }
        let now = clock()
        let channel: LiveChannel
        do {
            guard let opened = try hub.open(stream.id, started: now) else { return .failure(.busy(stream.id)) }
            channel = opened
        } catch {
            return .failure(.catalog(error.description))
        }
        var active = stream
        active.state = .active
        active.wentLiveAt = now
        active.error = nil
        do {
            guard try await streams.store.updateLiveStream(active, ifState: stream.state) else {
                channel.finish()
                return .failure(.busy(stream.id))
            }
        } catch {
            channel.finish()
            return .failure(.catalog(error.description))
        }
        log?("live stream \(stream.id): publishing")
        return .success((active, channel))
    }

    /// The publisher of `stream` went (it unpublished, its connection closed, or its media was
    /// refused with `error`): the channel ends and the row goes back to `idle`, ready for the next
    /// publish, unless the stream was ended meanwhile.
    func end(_ stream: LiveStream, channel: LiveChannel, error: String? = nil) async {
        channel.finish()
        var idle = stream
        idle.state = .idle
        idle.error = error
        _ = try? await streams.store.updateLiveStream(idle, ifState: .active)
        log?("live stream \(stream.id): publisher gone\(error.map { " (\($0))" } ?? "")")
    }
}
