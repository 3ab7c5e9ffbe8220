import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `--webhook URL --webhook-secret-file FILE` (repeatable) and the retry schedule: what
/// `feed serve` registers in the catalog and how it and `feed worker` deliver.
struct WebhookOptions: ParsableArguments {
    @Option(help: ArgumentHelp("An endpoint that receives the events (upload.*, job.*, hls.ready) as signed POSTs; repeat for several. Kept in the catalog.", valueName: "url"))
    var webhook: [String] = []
    @Option(help: ArgumentHelp("File holding an endpoint's signing secret (16 bytes or more): one per --webhook, in order, or one for all.", valueName: "file"))
    var webhookSecretFile: [String] = []
    @Option(help: ArgumentHelp("How long a delivery is retried after the event (seconds, or with s, m, h, d).", valueName: "time"))
    var webhookWindow = TimeSpan(seconds: 86_400)
    @Option(help: ArgumentHelp("Seconds before a failed delivery's second attempt; each later wait doubles (at most 1 h).", valueName: "seconds"))
    var webhookRetry = 10.0

    func validate() throws {
        guard webhookRetry > 0, webhookRetry <= 3600 else { throw ValidationError("--webhook-retry must be above 0 and at most 3600 seconds") }
        guard webhookWindow.seconds >= 1 else { throw ValidationError("--webhook-window must be at least 1 s") }
        guard webhookSecretFile.count == webhook.count || (webhookSecretFile.count == 1 && !webhook.isEmpty) else {
            throw ValidationError("give one --webhook-secret-file per --webhook, or one for all")
        }
        for url in webhook {
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme), parsed.host != nil else {
                throw ValidationError("--webhook \(url): not an http or https URL")
            }
        }
    }

    /// The delivery schedule, with an HTTP client.
    func delivery(sender: HTTPWebhookSender) -> WebhookDelivery {
        WebhookDelivery(sender: sender, firstRetry: webhookRetry, window: Double(webhookWindow.seconds))
    }

    /// Adds (or updates) the endpoints in `roll`'s catalog.
    func register(in roll: Roll) async throws {
        guard !webhook.isEmpty else { return }
        guard let store = roll.webhookStore else { throw CommandFailure(description: "this catalog keeps no webhooks", kind: .usage) }
        for (index, url) in webhook.enumerated() {
            let file = webhookSecretFile[webhookSecretFile.count == 1 ? 0 : index]
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(description: "\(file): \(FileManager.default.fileExists(atPath: file) ? "cannot be read" : "no such file")",
                                     kind: FileManager.default.fileExists(atPath: file) ? .io : .missingInput)
            }
            let secret = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
            guard secret.utf8.count >= 16 else { throw CommandFailure(description: "\(file): a webhook secret needs at least 16 bytes", kind: .invalidData) }
            _ = try await store.addWebhook(url: url, secret: secret)
        }
    }
}
