import FeedCore

/// A webhook receiver that answers every POST with `status`, counting them.
final class CountingSender: WebhookSender {
    let status: Int
    let posts = Locked(0)

    init(answering status: Int) { self.status = status }

    func post(url: String, headers: [(String, String)], body: [UInt8], timeout: Double) async throws -> Int {
        posts.withLock { $0 += 1 }
        return status
    }
}
