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
