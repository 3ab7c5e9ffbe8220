import FeedCore
import Foundation

/// The roll's HLS ladders as the server makes them: packaged on first request (off the event
/// loops), one packaging per recording however many requests wait for it.
actor HLSPackagings {
    private let roll: Roll
    private var running: [Int64: Task<URL, any Error>] = [:]

    init(roll: Roll) { self.roll = roll }

    /// The folder of `recording`'s ladder, packaging it first if no cached one exists.
    /// A cancelled request stops waiting; the packaging goes on for the others (and the cache).
    func folder(of recording: Recording) async throws -> URL {
        if let task = running[recording.id] { return try await task.value }
        let roll = roll
        let task = Task {
            try await MediaRoutes.offThread { try roll.hls(of: recording, isCancelled: { Task.isCancelled }) }
        }
        running[recording.id] = task
        defer { running[recording.id] = nil }
        return try await task.value
    }
}
