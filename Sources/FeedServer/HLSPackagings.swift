import FeedCore
import Foundation
import Synchronization

/// The roll's HLS ladders as the server makes them: packaged on first request (off the event
/// loops), one packaging per recording however many requests wait for it.
actor HLSPackagings {
    private let roll: Roll
    private var running: [Int64: Task<URL, any Error>] = [:]
    /// Set when the server stops: packagings end at their next picture, leaving nothing.
    private let stopping = StopFlag()

    init(roll: Roll) { self.roll = roll }

    /// The folder of `recording`'s ladder, packaging it first if no cached one exists.
    func folder(of recording: Recording) async throws -> URL {
        if let task = running[recording.id] { return try await task.value }
        let (roll, stopping) = (roll, stopping)
        let task = Task {
            try await MediaRoutes.offThread { try roll.hls(of: recording, isCancelled: { stopping.isSet }) }
        }
        running[recording.id] = task
        defer { running[recording.id] = nil }
        return try await task.value
    }

    /// Stops every packaging under way and waits until each has removed its folder.
    func stop() async {
        stopping.set()
        for task in running.values { _ = try? await task.value }
    }

    private final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }
}
