import FeedCore
import Foundation
import PostgresNIO

/// Completions of jobs that insert nothing (HLS, poster frames, no-ops), grouped: while one
/// `UPDATE` is in flight, the completions that arrive wait and go together in the next one
/// (group commit, no added delay). Each is still checked by its own token and lease, and each
/// caller learns whether its own job was done or its lease lost.
final class CompletionBatch: Sendable {
    private struct Pending {
        var id: Int64
        var token: String
        var continuation: CheckedContinuation<Bool, any Error>
    }

    /// A job done under one attempt's token.
    private struct Done: Hashable {
        var id: Int64
        var token: String
    }

    private struct State {
        var pending: [Pending] = []
        var flushing = false
    }

    private let state = Locked(State())

    /// Completes job `id` under `token` through `catalog`; true when done, false when the lease was lost.
    func complete(id: Int64, token: String, catalog: PostgresCatalog) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state -> Bool in
                state.pending.append(Pending(id: id, token: token, continuation: continuation))
                guard !state.flushing else { return false }
                state.flushing = true
                return true
            }
            if start { Task { await self.flush(catalog) } }
        }
    }

    /// Sends what is pending, one statement per round, until nothing is.
    private func flush(_ catalog: PostgresCatalog) async {
        while true {
            let batch = state.withLock { state -> [Pending] in
                let batch = state.pending
                state.pending = []
                if batch.isEmpty { state.flushing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                let rows = try await catalog.rows("""
                    UPDATE job SET state = 'done', progress = 1, error = NULL, token = NULL, lease_expires_at = NULL, output = NULL,
                                   updated_at = \(unescaped: catalog.now)
                    FROM unnest(\(batch.map(\.id)), \(batch.map(\.token))) AS done(id, token)
                    WHERE job.id = done.id AND job.state = 'running' AND job.token = done.token
                      AND job.lease_expires_at > \(unescaped: catalog.now)
                    RETURNING job.id, done.token
                    """)
                // By id and token: a stale attempt and a newer one of the same job may share a batch.
                let ended = Set(try rows.map { row in
                    let (id, token) = try row.decode((Int64, String).self)
                    return Done(id: id, token: token)
                })
                for item in batch { item.continuation.resume(returning: ended.contains(Done(id: item.id, token: item.token))) }
            } catch {
                for item in batch { item.continuation.resume(throwing: error) }
            }
        }
    }
}
