import Foundation

extension Roll {
    /// How many times a delivery may be claimed: enough for a day of backoff, a bound all the same.
    public static let webhookMaxAttempts = 1000

    /// Queues `event` for every webhook endpoint of the catalog: one `webhook` job each, in the
    /// job queue, so a delivery survives a restart and any worker may make it. Returns how many
    /// were queued; a catalog failure queues none and is returned to the caller to log (the
    /// change the event is about has happened all the same).
    @discardableResult
    public func emit(_ event: WebhookEvent) async throws(RollError) -> Int {
        let endpoints = try await catalog.webhooks()
        let text = event.json
        for endpoint in endpoints {
            let request = WebhookJobRequest(url: endpoint.url, secret: endpoint.secret, event: text,
                                            eventID: event.id, type: event.type.rawValue)
            _ = try await catalog.enqueue(.webhook(request), maxAttempts: Self.webhookMaxAttempts, owner: nil)
        }
        return endpoints.count
    }
}
