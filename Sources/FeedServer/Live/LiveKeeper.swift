import FeedCore
import Foundation
import ServiceLifecycle

/// The live streams' housekeeping, as a service of the server's group: every `tick` it ends the
/// channels whose publisher stayed away past the reconnect window (or whose row another server
/// ended: ``LiveHub/sweep(now:)``) and puts the rooms' hearts and viewer counts into the catalog
/// (``LiveHub/flushRooms()``, once more when it stops), and at start and every
/// `recoveryInterval` it finishes the streams a stopped or dead server left
/// (``LiveRecordings/recover()``).
struct LiveKeeper: Service {
    let hub: LiveHub
    let recordings: LiveRecordings
    /// The time the reconnect window is measured on.
    let clock: @Sendable () -> Date
    var tick: Duration = .milliseconds(500)
    var recoveryInterval: TimeInterval = 30

    func run() async throws {
        var lastRecovery = Date.distantPast
        while true {
            let now = clock()
            if now.timeIntervalSince(lastRecovery) >= recoveryInterval {
                await recordings.recover()
                lastRecovery = now
            }
            await hub.sweep(now: now)
            await hub.flushRooms()
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: tick) } } catch {
                await hub.flushRooms()
                return
            }
        }
    }
}
