/// What became of a batch of a ``FeedEventSender``: what its `report` hears, once per batch.
public enum EventDelivery: Sendable {
    /// The server stored the batch: `accepted` new events, `duplicates` it had already (an earlier
    /// attempt that reached it before the answer was lost).
    case sent(events: Int, accepted: Int, duplicates: Int)
    /// The server refused the batch for what it holds (a 4xx other than 408 and 429: a wrong
    /// event, a caller with no user that names no device, a token refused): dropped, never sent
    /// again.
    case refused(events: [Components.Schemas.Event], error: FeedClientError)
    /// The batch still failed after the sender's retries (the network, 408, 429, a 5xx): it is
    /// queued again, first, with the same ids, for the next flush.
    case postponed(events: Int, error: FeedClientError)
    /// More events waited than the sender keeps (`maxQueued`): these, the oldest, were dropped.
    case overflowed(events: [Components.Schemas.Event])
}
