import Foundation

/// Reads a batch of events: a JSON array of objects, or NDJSON (one object a line), at most
/// ``maxEvents`` events and ``maxBytes`` bytes. Every event is checked before any is kept, and
/// the first wrong one is named with its field (``RecsError/invalidEvent(index:id:field:problem:)``).
///
/// Fields: `id` (1–128 characters, no control character), `type` (an ``EventType``), `video` (a
/// positive integer), `at` (RFC 3339, optional), `watched_ms` (required for `watch`, 0 to a
/// day), `duration_ms` (optional, positive, at most a day), `device` (1–128 characters); `user`
/// only where ``Options/allowsUser`` (an import file). Other fields are ignored, so that a newer
/// client's events are still taken.
public enum EventBatch {
    /// The most events one batch holds.
    public static let maxEvents = 1000
    /// The most bytes one batch holds: 1 MiB.
    public static let maxBytes = 1 << 20
    /// The longest id (or device id) in characters.
    public static let maxIDLength = 128
    /// The longest a watch (or a video) may be, in milliseconds: a day.
    public static let maxMilliseconds: Int64 = 86_400_000

    /// What a reader takes beyond what a request may send.
    public struct Options: Sendable {
        /// Whether an event may name its `user` (an import file may; a request's events are its caller's).
        public var allowsUser: Bool
        /// The most events (``EventBatch/maxEvents`` for a request; an import file has no limit).
        public var maxEvents: Int?

        /// Options.
        public init(allowsUser: Bool = false, maxEvents: Int? = EventBatch.maxEvents) {
            self.allowsUser = allowsUser
            self.maxEvents = maxEvents
        }
    }

    /// The events of `bytes` (a JSON array or NDJSON).
    public static func parse(_ bytes: some Collection<UInt8>, options: Options = Options()) throws(RecsError) -> [FeedEvent] {
        if options.maxEvents != nil, bytes.count > maxBytes { throw .batchTooLarge(bytes.count) }
        guard let first = bytes.first(where: { !Self.isSpace($0) }) else { throw .notEvents("the body is empty") }
        let values: [EventValue]
        if first == UInt8(ascii: "[") {
            do { values = try JSONDecoder().decode([EventValue].self, from: Data(bytes)) } catch {
                throw .notEvents("not valid JSON (\(Self.reason(error)))")
            }
        } else {
            values = try lines(bytes)
        }
        if let most = options.maxEvents, values.count > most { throw .tooManyEvents(values.count) }
        if values.isEmpty { throw .notEvents("no event in it") }
        var events: [FeedEvent] = []
        events.reserveCapacity(values.count)
        for (index, value) in values.enumerated() { events.append(try event(value, index: index, options: options)) }
        return events
    }

    /// NDJSON: one value a line, blank lines skipped.
    static func lines(_ bytes: some Collection<UInt8>) throws(RecsError) -> [EventValue] {
        var values: [EventValue] = []
        let decoder = JSONDecoder()
        var number = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard line.contains(where: { !Self.isSpace($0) }) else { continue }
            do { values.append(try decoder.decode(EventValue.self, from: Data(line))) } catch {
                throw .notEvents("line \(number) is not valid JSON (\(Self.reason(error)))")
            }
        }
        return values
    }

    /// One event, checked.
    static func event(_ value: EventValue, index: Int, options: Options) throws(RecsError) -> FeedEvent {
        guard case let .object(fields) = value else {
            throw .invalidEvent(index: index, id: nil, field: "the event", problem: "must be a JSON object, not \(value.found)")
        }
        var id: String?
        func bad(_ field: String, _ problem: String) -> RecsError { .invalidEvent(index: index, id: id, field: field, problem: problem) }
        guard let idValue = fields["id"] else { throw bad("id", "is missing") }
        guard case let .string(text) = idValue, Self.isName(text) else {
            throw bad("id", "must be a string of 1 to \(maxIDLength) characters with no control character, not \(idValue.found)")
        }
        id = text
        guard let typeValue = fields["type"] else { throw bad("type", "is missing") }
        guard case let .string(typeText) = typeValue, let type = EventType(rawValue: typeText) else {
            throw bad("type", "must be one of \(EventType.allCases.map(\.rawValue).joined(separator: ", ")), not \(typeValue.found)")
        }
        guard let videoValue = fields["video"] else { throw bad("video", "is missing") }
        guard case let .int(video) = videoValue, video > 0 else { throw bad("video", "must be a video's id (a positive integer), not \(videoValue.found)") }
        var event = FeedEvent(id: text, type: type, video: video)
        if let at = fields["at"], !Self.isNull(at) {
            guard case let .string(atText) = at, let date = RFC3339.date(atText) else {
                throw bad("at", "must be an RFC 3339 time such as 2026-12-02T16:44:20Z, not \(at.found)")
            }
            event.at = date
        }
        event.watchedMs = try milliseconds(fields["watched_ms"], field: "watched_ms", zero: true, bad)
        event.durationMs = try milliseconds(fields["duration_ms"], field: "duration_ms", zero: false, bad)
        if type == .watch, event.watchedMs == nil { throw bad("watched_ms", "is missing (a watch says how long it played)") }
        if let device = fields["device"], !Self.isNull(device) {
            guard case let .string(name) = device, Self.isName(name) else {
                throw bad("device", "must be a string of 1 to \(maxIDLength) characters with no control character, not \(device.found)")
            }
            event.device = name
        }
        if let user = fields["user"], !Self.isNull(user) {
            guard options.allowsUser else { throw bad("user", "cannot be sent: a request's events are its caller's") }
            guard case let .string(name) = user, Self.isName(name) else {
                throw bad("user", "must be a user's name (1 to \(maxIDLength) characters), not \(user.found)")
            }
            event.user = name
        }
        return event
    }

    /// A duration field: absent or null is nil; else whole milliseconds up to a day.
    static func milliseconds(_ value: EventValue?, field: String, zero: Bool, _ bad: (String, String) -> RecsError) throws(RecsError) -> Int64? {
        guard let value, !isNull(value) else { return nil }
        guard case let .int(ms) = value, ms >= (zero ? 0 : 1), ms <= maxMilliseconds else {
            throw bad(field, "must be whole milliseconds, \(zero ? 0 : 1) to \(maxMilliseconds) (a day), not \(value.found)")
        }
        return ms
    }

    static func isNull(_ value: EventValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    /// 1 to ``maxIDLength`` characters, none of them a control character.
    static func isName(_ text: String) -> Bool {
        let count = text.unicodeScalars.count
        return count >= 1 && count <= maxIDLength && !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// A decoding failure in a few words.
    static func reason(_ error: any Error) -> String {
        if case let DecodingError.dataCorrupted(context) = error {
            return (context.underlyingError.map { "\($0)" } ?? context.debugDescription).prefix(120).description
        }
        return "\(error)".prefix(120).description
    }
}
