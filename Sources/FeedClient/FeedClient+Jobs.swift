import Foundation
import OpenAPIRuntime

extension FeedClient {
    /// A job as it moves: `GET /jobs/{id}/events` (Server-Sent Events), one element per event, the
    /// last one `done`, `failed`, `cancelled` or `dead`. The stream ends after that one; it throws
    /// ``FeedClientError`` when the job does not exist or the connection breaks.
    public func jobUpdates(id: Int) -> AsyncThrowingStream<Components.Schemas.Job, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Components.Schemas.Job.self)
        let api = api
        let task = Task {
            do {
                let body = try await api.jobEvents(path: .init(id: String(id))).ok.body.textEventStream
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .custom { decoder in
                    let text = try decoder.singleValueContainer().decode(String.self)
                    return try ISO8601Transcoder().decode(text)
                }
                for try await event in body.asDecodedServerSentEventsWithJSONData(of: Components.Schemas.Job.self, decoder: decoder) {
                    guard let job = event.data else { continue }
                    continuation.yield(job)
                    if job.state.isFinal { break }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: FeedClientError(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// A recording's bytes (`GET /media/roll/{id}`), streamed, with their length when the server
    /// gives it.
    public func recordingClip(id: Int) async throws(FeedClientError) -> HTTPBody {
        try await perform {
            switch try await api.getRecordingClip(path: .init(id: String(id))).ok.body {
            case let .videoMp4(body), let .videoQuicktime(body), let .binary(body), let .jpeg(body), let .png(body):
                return body
            }
        }
    }
}

extension Components.Schemas.Job.StatePayload {
    /// Whether the job has ended: `done`, `failed`, `cancelled` or `dead`.
    public var isFinal: Bool { self == .done || self == .failed || self == .cancelled || self == .dead }
}
