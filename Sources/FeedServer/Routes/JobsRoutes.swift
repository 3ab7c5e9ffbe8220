import FeedCore
import FeedJobs
import Foundation
import Hummingbird

/// `GET /jobs?state=&limit=` → `{"jobs":[…]}` newest first (`feed jobs list`'s);
/// `POST /jobs/stack` → 202 `{"id":…,"state":"queued",…}`; `GET /jobs/{id}`; `GET /jobs/{id}/events`
/// (Server-Sent Events: `event: progress` as it moves, then one `event: done|failed|cancelled`);
/// `DELETE /jobs/{id}` cancels (no output, no row). What is accepted and what a refusal says is
/// ``JobQueue``'s, as for `feed jobs`; failures reach ``ErrorMiddleware`` as they are thrown.
struct JobsRoutes {
    let service: FeedService
    let runner: JobRunner

    /// Polls (200 ms each) without news before the event stream sends a keep-alive comment.
    static let keepAliveTicks = 75

    var queue: JobQueue { JobQueue(roll: service.roll, uploads: service.uploads) }

    func register(on router: RouteRecorder) {
        router.get("jobs") { request, context in try await list(request, context) }
        router.post("jobs/stack") { request, context in try await create(request, context) }
        router.get("jobs/:id") { _, context in JSONBytes.response(shown(try await job(context)) + [0x0A]) }
        router.get("jobs/:id/events") { _, context in try await events(context) }
        router.head("jobs/:id/events") { _, context in try await events(context).headOfStream() }
        router.delete("jobs/:id") { _, context in
            let job = try await job(context)
            let cancelled = try await runner.cancel(job.id)
            await runner.wake()  // a delivery of the cancel's event may be queued
            return JSONBytes.response(shown(cancelled) + [0x0A])
        }
    }

    func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await request.body.collect(upTo: service.configuration.maxJSONBody)
        let stack = try JobRequest(kind: .stack, json: body.readableBytesView)
        // A user stacks their own recordings and uploads only; another's are as unknown as missing ones.
        if case let .stack(request) = stack {
            for source in [request.front, request.back] { try await service.check(source, for: context.caller) }
        }
        let job = try await queue.enqueue(stack, owner: context.caller.rowOwner)
        await runner.wake()
        return JSONBytes.response(shown(job) + [0x0A], status: .accepted, headers: [.location: "/jobs/\(job.id)"])
    }

    /// The newest jobs, at most `limit` (1…1000, default 50), of one `state` if given: a user's
    /// own, an admin's everyone's.
    func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let limit = try VideosRoutes.count(request, "limit") ?? 50
        guard (1...1000).contains(limit) else { throw RequestFailure.usage("limit must be 1…1000, not \(limit)") }
        var state: Job.State?
        if let text = request.uri.queryParameters["state"] {
            guard let parsed = Job.State(rawValue: String(text)) else {
                throw RequestFailure.usage("state must be one of \(Job.State.allCases.map(\.rawValue).joined(separator: ", ")), not \(text)")
            }
            state = parsed
        }
        let jobs = try await service.roll.catalog.jobs(state: state, limit: limit, ownedBy: context.caller.listedOwner)
        var out = Array(#"{"jobs":["#.utf8)
        for (index, job) in jobs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: shown(job))
        }
        out.append(contentsOf: "]}\n".utf8)
        return JSONBytes.response(out)
    }

    /// A job as JSON, its error naming no folder of the server's (a failed stack names its
    /// inputs by file name).
    func shown(_ job: Job) -> [UInt8] {
        var job = job
        job.error = job.error.map(service.paths.redact)
        return JobJSON.bytes(job)
    }

    /// The id in the path; one that is not a positive number names no job.
    func id(_ context: ServerContext) throws -> Int64 {
        let text = try context.parameters.decoded("id")
        guard let id = Int64(text), id > 0 else { throw JobError.notFound(id: text) }
        return id
    }

    /// The job in the path if the caller may see it; another user's is as unknown as a missing one.
    func job(_ context: ServerContext) async throws -> Job {
        let job = try await queue.job(id: try id(context))
        guard context.caller.sees(job.owner) else { throw JobError.notFound(id: String(job.id)) }
        return job
    }


    func events(_ context: ServerContext) async throws -> Response {
        let first = try await job(context)
        let store = service.roll.catalog
        let body = ResponseBody { writer in
            var last: Job?
            var job = first
            var quiet = 0
            while !Task.isCancelled {
                if job != last {
                    let name = job.state.isFinal ? job.state.rawValue : "progress"
                    try await writer.write(ByteBuffer(bytes: Array("event: \(name)\ndata: ".utf8) + shown(job) + Array("\n\n".utf8)))
                    last = job
                    quiet = 0
                } else if quiet >= Self.keepAliveTicks {
                    // A comment line every 15 s while nothing moves (a job queued behind others),
                    // so clients' and proxies' read timeouts do not end a healthy stream.
                    try await writer.write(ByteBuffer(string: ": waiting\n\n"))
                    quiet = 0
                }
                quiet += 1
                if job.state.isFinal { break }
                try await Task.sleep(for: .milliseconds(200))
                guard let next = try await store.job(id: job.id) else { break }
                job = next
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: RequestRecord.streamed(body, context))
    }
}
