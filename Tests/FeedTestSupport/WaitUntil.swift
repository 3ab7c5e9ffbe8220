import Foundation

/// What a test waits for instead of a fixed sleep: `condition`, checked every 20 ms until it
/// holds; a failure once `timeout` seconds pass without it (a hang, not a slow machine).
public struct ConditionTimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "the condition did not hold within \(seconds) s" }
}

/// Waits until `condition` holds, checking every 20 ms; throws ``ConditionTimedOut`` after `timeout` seconds.
public func waitUntil(timeout: Double = 30, _ condition: @Sendable () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while !(try await condition()) {
        guard ContinuousClock.now < deadline else { throw ConditionTimedOut(seconds: timeout) }
        try await Task.sleep(for: .milliseconds(20))
    }
}
