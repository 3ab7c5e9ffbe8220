import FeedCore
import Foundation
import Synchronization

/// The roll's HLS ladders as the server makes them: packaged on first request (off the event
/// loops), one packaging per recording however many requests wait for it, and at most `slots`
/// packagings at once (`--jobs`), so requests for many recordings cannot start encoders without
/// bound; the others wait their turn. A cached ladder is served without waiting.
actor HLSPackagings {
    private let roll: Roll
    private var running: [Int64: Task<URL, any Error>] = [:]
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Set when the server stops: packagings end at their next picture, leaving nothing.
    private let stopping = StopFlag()

    init(roll: Roll, slots: Int) {
        self.roll = roll
        free = max(1, slots)
    }

    /// The folder of `recording`'s ladder, packaging it first if no cached one exists.
    func folder(of recording: Recording) async throws -> URL {
        if let cached = roll.cachedHLS(of: recording) { return cached }
        if let task = running[recording.id] { return try await task.value }
        let (roll, stopping) = (roll, stopping)
        let task = Task {
            await self.acquire()
            defer { self.release() }
            if stopping.isSet { throw HLSError.interrupted }
            return try await OwnThread.run("feed.hls") { try roll.hls(of: recording, isCancelled: { stopping.isSet }) }
        }
        running[recording.id] = task
        defer { running[recording.id] = nil }
        return try await task.value
    }

    /// Stops every packaging under way (and every one waiting for a slot) and waits until each
    /// has removed its folder.
    func stop() async {
        stopping.set()
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
        for task in running.values { _ = try? await task.value }
    }

    private func acquire() async {
        if free > 0 && waiting.isEmpty {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }

    private final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }
}
