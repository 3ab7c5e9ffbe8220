import Foundation

/// Sends a webhook's POST: what a job runner uses to deliver (the CLI gives it one over
/// AsyncHTTPClient; FeedCore has no HTTP client of its own).
public protocol WebhookSender: Sendable {
    /// POSTs `body` to `url` with `headers`; the response's status. Throws when no answer came
    /// within `timeout` seconds or the connection failed.
    func post(url: String, headers: [(String, String)], body: [UInt8], timeout: Double) async throws -> Int
}

/// How deliveries are made: the sender, and the retry schedule. A delivery that gets no 2xx
/// (a timeout, a refused connection, any other status) is tried again after `firstRetry`
/// seconds, then twice as long each time (at most an hour), until `window` seconds after the
/// event; then it is `failed`. Each attempt sends the same body and event id.
public struct WebhookDelivery: Sendable {
    /// The HTTP client; nil: a runner without one gives webhook jobs back to the queue.
    public var sender: (any WebhookSender)?
    /// Seconds before the second attempt (10).
    public var firstRetry: Double
    /// Seconds after the event during which attempts are made (a day).
    public var window: Double
    /// Seconds an attempt waits for the answer (10).
    public var timeout: Double
    /// What opens the secrets the catalog keeps sealed (nil: none is sealed here).
    public var secrets: SecretBox?

    /// A schedule; the defaults are a day of retries starting at 10 s.
    public init(sender: (any WebhookSender)? = nil, firstRetry: Double = 10, window: Double = 86_400, timeout: Double = 10,
                secrets: SecretBox? = nil) {
        self.sender = sender
        self.firstRetry = firstRetry
        self.window = window
        self.timeout = timeout
        self.secrets = secrets
    }

    /// Seconds to wait after attempt `attempt` (1 for the first) failed.
    public func delay(after attempt: Int) -> Double {
        min(firstRetry * pow(2, Double(max(0, attempt - 1))), 3600)
    }
}
