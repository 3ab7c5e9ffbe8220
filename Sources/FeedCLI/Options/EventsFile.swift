import FeedCore
import FeedRecs
import Foundation

/// An NDJSON file of events as `feed events import` and `feed recs evaluate` read it: each
/// event as `POST /events` takes it, plus its viewer (`user`, or `device`).
enum EventsFile {
    /// The events of `path`, every line checked.
    /// - Throws: a missing-input ``CommandFailure`` for a file that cannot be read;
    ///   ``RecsError/invalidEventsFile(path:line:_:)`` naming the first wrong line.
    static func read(_ path: String) throws -> [FeedEvent] {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(description: "\(path): cannot read it (no such file, or not readable)", kind: .missingInput) }
        var events: [FeedEvent] = []
        var number = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            do throws(RecsError) {
                let event = try EventBatch.parse(line, options: EventBatch.Options(allowsUser: true, maxEvents: nil))[0]
                guard event.user != nil || event.device != nil else {
                    throw RecsError.invalidEventsFile(path: path, line: number, "the event names no user and no device")
                }
                events.append(event)
            } catch let error {
                if case .invalidEventsFile = error { throw error }
                var message = error.description
                if case let .invalidEvent(_, id, field, problem) = error { message = "\(id.map { "event \"\($0)\": " } ?? "")\(field) \(problem)" }
                throw RecsError.invalidEventsFile(path: path, line: number, message)
            }
        }
        guard !events.isEmpty else { throw RecsError.invalidEventsFile(path: path, line: 0, "no event in it") }
        return events
    }

    /// Who sent `event`: its user, else its device.
    static func sender(_ event: FeedEvent) -> EventActor { event.user.map(EventActor.user) ?? .device(event.device ?? "") }
}
