/// The request of a `webhook` job: one event for one endpoint. The event's JSON text is kept as
/// it was made, so every attempt sends the same bytes and the same event id; the endpoint's
/// secret rides along, so any worker can sign (the catalog holds it, as it holds the endpoint).
/// Job listings never show requests.
public struct WebhookJobRequest: Sendable, Equatable, Codable {
    /// Where to POST it.
    public var url: String
    /// The endpoint's signing secret.
    public var secret: String
    /// The event: `{"id","type","created","data"}`, JSON text.
    public var event: String
    /// The event's id and type, for listings (`evt_…`, `job.done`).
    public var eventID: String
    public var type: String

    /// A delivery of `event` to `url`.
    public init(url: String, secret: String, event: String, eventID: String, type: String) {
        self.url = url
        self.secret = secret
        self.event = event
        self.eventID = eventID
        self.type = type
    }

    private enum CodingKeys: String, CodingKey {
        case url, secret, event, eventID = "event_id", type
    }
}
