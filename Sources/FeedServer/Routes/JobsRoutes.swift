import FeedCore
import Foundation
import Hummingbird

/// `POST /jobs/stack` → 202 `{"id":…,"state":"queued",…}`; `GET /jobs/{id}`; `GET /jobs/{id}/events`
/// (Server-Sent Events: `event: progress` as it moves, then one `event: done|failed|cancelled`);
/// `DELETE /jobs/{id}` cancels (no output, no row).
struct JobsRoutes {
    let service: FeedService
    let runner: JobRunner

    func register(on router: Router<ServerContext>) {
        router.post("jobs/stack") { request, context in try await create(request, context) }
        router.get("jobs/:id") { _, context in JSONBytes.response(JobJSON.bytes(try await job(context)) + [0x0A]) }
        router.get("jobs/:id/events") { _, context in try await events(context) }
        router.delete("jobs/:id") { _, context in try await cancel(context) }
    }

    func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await request.body.collect(upTo: service.configuration.maxJSONBody)
        let stack: StackJobRequest
        do { stack = try JSONDecoder().decode(StackJobRequest.self, from: Data(buffer: body)) } catch {
            throw APIError.badRequest("POST /jobs/stack: the body is not {\"front\":{\"recording\":ID},\"back\":{\"recording\":ID},\"options\":{…}}: \(Self.reason(error))")
        }
        // Check what can be checked now: the options and that both sources exist.
        do { _ = try stack.stackOptions(output: "check.mp4") } catch { throw APIError(error) }
        for source in [stack.front, stack.back] {
            do { _ = try await JobRunner.path(of: source, roll: service.roll, uploads: service.uploads) } catch let error as any FeedFailure { throw APIError(error) }
        }
        let text = String(decoding: try JSONEncoder().encode(stack), as: UTF8.self)
        let job = try await rolled { try await service.roll.jobStore.enqueue(kind: JobKind.stack.rawValue, request: text, maxAttempts: Job.defaultMaxAttempts) }
        await runner.wake()
        return JSONBytes.response(JobJSON.bytes(job) + [0x0A], status: .accepted, headers: [.location: "/jobs/\(job.id)"])
    }

    func job(_ context: ServerContext) async throws -> Job {
        let text = try context.parameters.require("id")
        guard let id = Int64(text), id > 0, let job = try await rolled({ try await service.roll.jobStore.job(id: id) }) else {
            throw APIError.notFound("no job with id \(text)")
        }
        return job
    }

    func cancel(_ context: ServerContext) async throws -> Response {
        let current = try await job(context)
        // One statement decides: a job that ended (or was cancelled by another) since it was
        // read is a conflict, named in the state it is in now.
        guard let update = try await rolled({ try await runner.cancel(current.id) }) else {
            throw APIError.notFound("no job with id \(current.id)")
        }
        guard update.changed else {
            throw APIError(.conflict, kind: FailureKind.conflict.rawValue, "job \(current.id) is \(update.job.state.rawValue); nothing to cancel")
        }
        return JSONBytes.response(JobJSON.bytes(update.job) + [0x0A])
    }

    func events(_ context: ServerContext) async throws -> Response {
        let first = try await job(context)
        let store = service.roll.jobStore
        let body = ResponseBody { writer in
            var last: Job?
            var job = first
            while !Task.isCancelled {
                if job != last {
                    let name = job.state.isFinal ? job.state.rawValue : "progress"
                    try await writer.write(ByteBuffer(bytes: Array("event: \(name)\ndata: ".utf8) + JobJSON.bytes(job) + Array("\n\n".utf8)))
                    last = job
                }
                if job.state.isFinal { break }
                try await Task.sleep(for: .milliseconds(200))
                guard let next = try await store.job(id: job.id) else { break }
                job = next
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    private func rolled<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as any FeedFailure { throw APIError(error) }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context): context.debugDescription
        default: "\(error)"
        }
    }
}
