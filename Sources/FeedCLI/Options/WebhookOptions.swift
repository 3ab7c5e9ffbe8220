import FeedAccess
import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `--webhook URL --webhook-secret-file FILE` (repeatable) and the retry schedule: what
/// `feed serve` registers in the catalog and how it and `feed worker` deliver.
struct WebhookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("An endpoint that receives the events (upload.*, job.*, hls.ready, live.*) as signed POSTs; repeat for several. Kept in the catalog.", valueName: "url"))
    var webhook: [String] = []
    @Option(help: ArgumentHelp("File holding an endpoint's signing secret (16 bytes or more): one per --webhook, in order, or one for all.", valueName: "file"))
    var webhookSecretFile: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("How long a delivery is retried after the event (seconds, or with s, m, h, d).", valueName: "time"))
    var webhookWindow = TimeSpan(seconds: 86_400)
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds before a failed delivery's second attempt; each later wait doubles (at most 1 h).", valueName: "seconds"))
    var webhookRetry = 10.0

    func validate() throws {
        guard webhookRetry >= 0.1, webhookRetry <= 3600 else { throw ValidationError("--webhook-retry must be 0.1…3600 seconds, not \(webhookRetry)") }
        guard webhookWindow.seconds >= 1 else { throw ValidationError("--webhook-window must be at least 1 s") }
        guard webhookSecretFile.count == webhook.count || (webhookSecretFile.count == 1 && !webhook.isEmpty) else {
            throw ValidationError("give one --webhook-secret-file per --webhook, or one for all")
        }
        for url in webhook where !WebhookEndpoint.isEndpoint(url) {
            throw ValidationError("--webhook \(url): not an endpoint URL (http:// or https://, a host, a port maybe, a path of printable ASCII)")
        }
    }

    /// The delivery schedule, with an HTTP client.
    func delivery(sender: HTTPWebhookSender) -> WebhookDelivery {
        WebhookDelivery(sender: sender, firstRetry: webhookRetry, window: Double(webhookWindow.seconds))
    }

    /// Adds (or updates) the endpoints in `roll`'s catalog.
    func register(in roll: Roll) async throws {
        guard !webhook.isEmpty else { return }
        let store = roll.catalog
        for (index, url) in webhook.enumerated() {
            let file = webhookSecretFile[webhookSecretFile.count == 1 ? 0 : index]
            let secret = String(decoding: try AccessKeys.secret(at: file), as: UTF8.self)
            if let problem = WebhookEndpoint.problem(url: url, secret: secret) {
                throw CommandFailure(description: "\(file): \(problem)", kind: .invalidData)
            }
            _ = try await store.addWebhook(url: url, secret: secret)
        }
    }
}
