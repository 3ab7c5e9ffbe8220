import Foundation

/// Where events are sent (`feed serve --webhook`, `POST /webhooks`), kept in the catalog so
/// every server and worker sharing it sends them.
public struct WebhookEndpoint: Sendable, Equatable {
    /// Stable id.
    public var id: Int64
    /// An http or https URL.
    public var url: String
    /// The secret its signatures are made with (``WebhookSignature``).
    public var secret: String
    /// When it was added.
    public var createdAt: Date

    /// An endpoint.
    public init(id: Int64, url: String, secret: String, createdAt: Date) {
        self.id = id
        self.url = url
        self.secret = secret
        self.createdAt = createdAt
    }
}

/// The webhook endpoints of a catalog.
public protocol WebhookStore: Sendable {
    /// Adds the endpoint `url`, or gives an existing one of that URL the new secret.
    func addWebhook(url: String, secret: String) async throws(RollError) -> WebhookEndpoint
    /// Every endpoint, oldest first.
    func webhooks() async throws(RollError) -> [WebhookEndpoint]
    /// Removes endpoint `id`; whether there was one.
    @discardableResult
    func removeWebhook(id: Int64) async throws(RollError) -> Bool
}
