import FeedCore
import FeedJobs
import Foundation
import Hummingbird

/// `POST /jobs/stack` → 202 `{"id":…,"state":"queued",…}`; `GET /jobs/{id}`; `GET /jobs/{id}/events`
/// (Server-Sent Events: `event: progress` as it moves, then one `event: done|failed|cancelled`);
/// `DELETE /jobs/{id}` cancels (no output, no row). What is accepted and what a refusal says is
/// ``JobQueue``'s, as for `feed jobs`; failures reach ``ErrorMiddleware`` as they are thrown.
struct JobsRoutes {
    let service: FeedService
    let runner: JobRunner

    var queue: JobQueue { JobQueue(roll: service.roll, uploads: service.uploads) }

    func register(on router: RouteRecorder) {
        router.post("jobs/stack") { request, context in try await create(request, context) }
        router.get("jobs/:id") { _, context in JSONBytes.response(JobJSON.bytes(try await job(context)) + [0x0A]) }
        router.get("jobs/:id/events") { _, context in try await events(context) }
        router.delete("jobs/:id") { _, context in
            JSONBytes.response(JobJSON.bytes(try await runner.cancel(try id(context))) + [0x0A])
        }
    }

    func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await request.body.collect(upTo: service.configuration.maxJSONBody)
        let stack = try JobRequest(kind: .stack, json: body.readableBytesView)
        let job = try await queue.enqueue(stack)
        await runner.wake()
        return JSONBytes.response(JobJSON.bytes(job) + [0x0A], status: .accepted, headers: [.location: "/jobs/\(job.id)"])
    }

    /// The id in the path; one that is not a positive number names no job.
    func id(_ context: ServerContext) throws -> Int64 {
        let text = try context.parameters.require("id")
        guard let id = Int64(text), id > 0 else { throw JobError.notFound(id: text) }
        return id
    }

    func job(_ context: ServerContext) async throws -> Job {
        try await queue.job(id: try id(context))
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
}
