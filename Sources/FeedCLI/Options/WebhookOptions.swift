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
    @Option(help: ArgumentHelp("File holding a key (32 bytes or more) webhook secrets are sealed with in the catalog; repeat to rotate: the first seals, all open. Every server and worker sharing the catalog needs it.", valueName: "file"))
    var secretsKeyFile: [String] = []

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

    /// The delivery schedule, with an HTTP client and the keys that open sealed secrets.
    func delivery(sender: HTTPWebhookSender) throws -> WebhookDelivery {
        WebhookDelivery(sender: sender, firstRetry: webhookRetry, window: Double(webhookWindow.seconds), secrets: try secretBox())
    }

    /// The keys of `--secrets-key-file`, the first sealing; nil without one.
    func secretBox() throws -> SecretBox? {
        let materials = try secretsKeyFile.map { file in
            let bytes = try AccessKeys.secret(at: file)
            guard bytes.count >= 32 else { throw AccessKeyError.secretTooShort(file: file, bytes: bytes.count) }
            return bytes
        }
        return SecretBox(materials: materials)
    }

    /// Adds (or updates) the endpoints in `roll`'s catalog, their secrets sealed when there is a
    /// key; with one, every endpoint's secret not sealed under it (stored before, or under an
    /// older key) is sealed again under it. `note` hears, once, of secrets this process leaves in
    /// plain text or cannot open (`feed serve` says it at start).
    func register(in roll: Roll, note: ((String) -> Void)? = nil) async throws {
        let store = roll.catalog, box = try secretBox()
        for (index, url) in webhook.enumerated() {
            let file = webhookSecretFile[webhookSecretFile.count == 1 ? 0 : index]
            let secret = String(decoding: try AccessKeys.secret(at: file), as: UTF8.self)
            if let problem = WebhookEndpoint.problem(url: url, secret: secret) {
                throw CommandFailure(description: "\(file): \(problem)", kind: .invalidData)
            }
            _ = try await store.addWebhook(url: url, secret: try box?.seal(secret) ?? secret)
        }
        let endpoints = try await store.webhooks()
        guard let box else {
            // With a key, every secret is sealed under it below, or the start fails naming the key.
            if let note, let line = Self.note(on: endpoints.map(\.secret)) { note(line) }
            return
        }
        for endpoint in endpoints where SecretBox.keyID(of: endpoint.secret) != box.sealingKeyID {
            do {
                _ = try await store.addWebhook(url: endpoint.url, secret: try box.seal(endpoint.secret))
            } catch let error as SecretBoxError {
                let reason = switch error {
                case let .unknownKey(id): "its secret is sealed with key \(id), which this process was not given: give that key's "
                    + "--secrets-key-file after the new one"
                case .unreadable: error.description
                }
                throw CommandFailure(description: "webhook \(endpoint.url): \(reason)", kind: .usage)
            }
        }
    }

    /// What a process without a key says of the stored secrets (`stored`): those sealed, which
    /// it cannot open, else those left in plain text; nil for none.
    static func note(on stored: [String]) -> String? {
        let keys = Set(stored.compactMap(SecretBox.keyID(of:)))
        let plain = stored.count(where: { SecretBox.keyID(of: $0) == nil })
        if !keys.isEmpty {
            return "\(stored.count - plain) webhook secret(s) are sealed with key "
                + "\(keys.sorted().joined(separator: ", ")), which this process was not given: their deliveries fail here; "
                + "give that key's --secrets-key-file"
        }
        guard plain > 0 else { return nil }
        return "\(plain) webhook secret(s) are kept in plain text in the catalog; give --secrets-key-file "
            + "(a file of 32 bytes or more, on every server and worker sharing the catalog) to seal them"
    }
}
