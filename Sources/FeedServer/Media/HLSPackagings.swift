import FeedCore
import Foundation

/// The roll's HLS ladders as the server makes them: packaged on first request, on the server's
/// ``BlockingPool`` (the `--jobs` threads that stack jobs and posters share, so requests for many
/// recordings cannot start encoders without bound; the others wait their turn), one packaging
/// per recording however many requests wait for it. A cached ladder is served without waiting.
actor HLSPackagings {
    private let roll: Roll
    private let pool: BlockingPool
    private var running: [Int64: Task<URL, any Error>] = [:]
    /// Set when the server stops: packagings end at their next picture, leaving nothing.
    private let stopping = StopFlag()

    init(roll: Roll, pool: BlockingPool) {
        self.roll = roll
        self.pool = pool
    }

    /// The folder of `recording`'s ladder, packaging it first if no cached one exists (then an
    /// `hls.ready` webhook event is queued).
    func folder(of recording: Recording) async throws -> URL {
        if let cached = roll.cachedHLS(of: recording) { return cached }
        if let task = running[recording.id] { return try await task.value }
        let (roll, stopping, pool) = (roll, stopping, pool)
        let task = Task {
            let folder = try await pool.run { () throws -> URL in
                if stopping.isSet { throw HLSError.interrupted }
                return try roll.hls(of: recording, isCancelled: { stopping.isSet })
            }
            _ = try? await roll.emit(.hlsReady(recording: recording.id))
            return folder
        }
        running[recording.id] = task
        defer { running[recording.id] = nil }
        return try await task.value
    }

    /// Stops every packaging under way (one waiting for a thread ends as soon as it gets one)
    /// and waits until each has removed its folder.
    func stop() async {
        stopping.set()
        for task in running.values { _ = try? await task.value }
    }
}
