import FeedAccess
import FeedCore
import FeedRecs
import FeedSocial
import Foundation
import Hummingbird

/// `POST /events`: a batch of what a client showed and played (a JSON array or NDJSON, at most
/// 1,000 events and 1 MiB), stored whole or refused whole. The events are the caller's: a user
/// (a JWT that may upload, or `X-Feed-User` on an open server), whose events that name a
/// `device` link that device to them; else the one device the events name (an open server, the
/// admin token, or a `read` token an app's guests share), else the read token's `sub`.
struct EventsRoutes {
    let service: FeedService
    let counters: RecsCounters

    func register(on router: RouteRecorder) {
        router.post("events") { request, context in try await events(request, context) }
    }

    func events(_ request: Request, _ context: ServerContext) async throws -> Response {
        guard let recs = service.recs else { throw RecsError.store(.store(message: "this catalog keeps no events", kind: .unavailable)) }
        let body = try await request.body.collect(upTo: EventBatch.maxBytes + 1)
        if body.readableBytes > EventBatch.maxBytes { throw RecsError.batchTooLarge(body.readableBytes) }
        let events = try EventBatch.parse(body.readableBytesView)
        let sender = try Self.sender(of: events, caller: context.caller, viewer: context.caller.viewer(request))
        let outcome = try await recs.record(events, sender: sender)
        counters.accepted(outcome)
        let text = #"{"accepted":\#(outcome.accepted),"duplicates":\#(outcome.duplicates)}"# + "\n"
        return JSONBytes.response(Array(text.utf8))
    }

    /// Whose events these are (see the type's comment).
    static func sender(of events: [FeedEvent], caller: Caller, viewer: Viewer) throws(RecsError) -> EventActor {
        let signedIn = caller.credential == .none || caller.has(.upload)
        if let name = viewer.name, signedIn { return .user(name) }
        let devices = Set(events.compactMap(\.device))
        if devices.count > 1, let first = events.first(where: { $0.device != nil })?.device,
           let index = events.firstIndex(where: { $0.device != nil && $0.device != first }) {
            throw .invalidEvent(index: index, id: events[index].id, field: "device", problem: "differs from the batch's first: a batch with no user is one device's")
        }
        if let device = devices.first { return .device(device) }
        if let name = viewer.name { return .user(name) }
        throw .needsActor("POST /events")
    }
}
