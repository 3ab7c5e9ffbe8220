import Foundation
import OpenAPIRuntime

/// Sends what a viewer does with the videos (`POST /events`: impressions, watches, skips, likes…)
/// in batches, for For You (`GET /feed/for-you`) to learn from. ``send(_:)`` queues an event and
/// returns at once; a full batch (``batchSize`` events, 100 by default) goes out in the
/// background, and ``flush()`` sends the rest (call it when the app moves to the background:
/// the queue is in memory only).
///
/// Each event has its id from when it was made (`Components.Schemas.Event.init(_:video:…)` gives
/// it a UUID), and a batch is always sent again with the same ids, so a batch that reached
/// the server before its answer was lost is stored once. A batch that fails (the network, 408,
/// 429, a 5xx, an answer the contract does not allow) is tried again after ``retryDelay``,
/// doubled each time up to ``maxRetryDelay`` (or after the server's `Retry-After`, at most 60 s),
/// ``retries`` times; then it stays queued, first, for the next flush (``EventDelivery/postponed(events:error:)``).
/// A batch the server refuses for what it holds (any other 4xx) is dropped
/// (``EventDelivery/refused(events:error:)``): sending it again would be refused again. Batches go
/// out one at a time, in the order their events were sent.
///
/// ```swift
/// let events = FeedEventSender(client: feed, device: deviceID, report: { delivery in
///     if case let .refused(dropped, error) = delivery { log.error("\(dropped.count) events refused: \(error)") }
/// })
/// await events.send(.init(.impression, video: post.id))
/// await events.send(.init(.watch, video: post.id, watchedMs: 8_200, durationMs: 12_000))
/// // scenePhase == .background:
/// await events.flush()
/// ```
public actor FeedEventSender {
    /// The client the batches go through (its token and middlewares apply).
    public let client: FeedClient
    /// The device stamped on every event that names none: for a viewer with no user, whose
    /// events the server keeps by device (it needs one); from a signed-in user, it links the
    /// device to them, so what it watched before joins their history. Nil: the events' own.
    public let device: String?
    /// Events per batch, at most: 100 by default (1…1,000, the server's limit).
    public let batchSize: Int
    /// Retries of a failing batch before it is left for the next flush: 5 by default.
    public let retries: Int
    /// The wait before the first retry, doubled for each next one: 0.5 s by default.
    public let retryDelay: Duration
    /// The longest wait between two attempts (but a longer `Retry-After`, up to 60 s): 30 s by default.
    public let maxRetryDelay: Duration
    /// The most events kept waiting (a device offline for long): past it the oldest are dropped
    /// (``EventDelivery/overflowed(events:)``). 10,000 by default.
    public let maxQueued: Int

    /// How the sender waits between attempts: tests pass one they drive.
    private let sleep: @Sendable (Duration) async throws -> Void
    /// Told what became of each batch.
    private let report: (@Sendable (EventDelivery) -> Void)?
    /// Events not sent yet, oldest first (the batch in flight is not among them).
    private var pending: [Components.Schemas.Event] = []
    /// The task sending batches, while one is.
    private var draining: Task<Bool, Never>?
    /// Whether the task sends a last, short batch too (a ``flush()`` is waiting), or full ones only.
    private var flushRequested = false

    /// A sender over `client`; `report` hears what became of each batch (on the sender's
    /// executor: keep it short). `sleep` is how it waits before a retry (tests drive it); a
    /// `sleep` that throws (cancelled) leaves the batch for the next flush.
    public init(client: FeedClient, device: String? = nil, batchSize: Int = 100, retries: Int = 5,
                retryDelay: Duration = .milliseconds(500), maxRetryDelay: Duration = .seconds(30), maxQueued: Int = 10_000,
                report: (@Sendable (EventDelivery) -> Void)? = nil,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.client = client
        self.device = device
        self.batchSize = min(max(batchSize, 1), 1000)
        self.retries = max(retries, 0)
        self.retryDelay = retryDelay
        self.maxRetryDelay = maxRetryDelay
        self.maxQueued = max(maxQueued, self.batchSize)
        self.sleep = sleep
        self.report = report
    }

    /// The events waiting to be sent, oldest first (not the batch in flight): an app that is
    /// about to be killed may keep them and ``send(_:)`` them again at the next launch (their
    /// ids unchanged, the server stores none twice).
    public var queued: [Components.Schemas.Event] { pending }

    /// Queues `event` (stamped with ``device`` when it names none); once ``batchSize`` wait, a
    /// batch goes out in the background. Returns at once.
    public func send(_ event: Components.Schemas.Event) {
        var event = event
        if event.device == nil { event.device = device }
        pending.append(event)
        if pending.count > maxQueued {
            let dropped = Array(pending.prefix(pending.count - maxQueued))
            pending.removeFirst(dropped.count)
            report?(.overflowed(events: dropped))
        }
        if pending.count >= batchSize, draining == nil { draining = Task { await self.drain() } }
    }

    /// Sends every queued event (and those queued meanwhile), in batches of ``batchSize``, after
    /// the batch in flight; returns once the queue is empty, true, or once a batch still failed
    /// after the retries, false (it and the rest stay queued).
    @discardableResult
    public func flush() async -> Bool {
        while true {
            if draining == nil {
                guard !pending.isEmpty else { return true }
                flushRequested = true
                draining = Task { await self.drain() }
            } else {
                flushRequested = true
            }
            guard let task = draining, await task.value else { return false }
        }
    }

    /// Sends batches while there is a full one, or any with a flush waiting; false when a batch
    /// is left for later.
    private func drain() async -> Bool {
        defer { draining = nil }
        while pending.count >= batchSize || (flushRequested && !pending.isEmpty) {
            let batch = Array(pending.prefix(batchSize))
            pending.removeFirst(batch.count)
            guard await deliver(batch) else {
                // First again, ahead of what came meanwhile: the same ids at the next flush.
                pending.insert(contentsOf: batch, at: 0)
                flushRequested = false
                return false
            }
        }
        flushRequested = false
        return true
    }

    /// One batch, tried until the server answers: true once stored or refused (dropped), false
    /// when it still fails after the retries.
    private func deliver(_ batch: [Components.Schemas.Event]) async -> Bool {
        var failures = 0
        while true {
            do {
                let result = try await client.api.sendEvents(body: .json(batch)).ok.body.json
                report?(.sent(events: batch.count, accepted: result.accepted, duplicates: result.duplicates))
                return true
            } catch {
                let failure = FeedClientError(error)
                guard Self.isRetried(failure) else {
                    report?(.refused(events: batch, error: failure))
                    return true
                }
                failures += 1
                guard failures <= retries else {
                    report?(.postponed(events: batch.count, error: failure))
                    return false
                }
                let wait = failure.retryAfter.map { min($0, .seconds(60)) }
                    ?? min(retryDelay * (1 << min(failures - 1, 16)), maxRetryDelay)
                do { try await sleep(wait) } catch {
                    report?(.postponed(events: batch.count, error: failure))
                    return false
                }
            }
        }
    }

    /// Whether a failed batch is sent again: the network, 408, 429, a 5xx, an answer the
    /// contract does not allow (a captive portal's page); not another 4xx, which would be
    /// refused again.
    static func isRetried(_ failure: FeedClientError) -> Bool {
        switch failure {
        case let .server(status, _): status >= 500 || status == 408 || status == 429
        case .transport, .unexpected: true
        case .file, .uploadGone: false
        }
    }
}
