import Foundation

/// The time catalogs write into rows and compare leases, backoffs and expiries against.
/// Production uses ``SystemWallClock`` (PostgreSQL: the database's own clock, so hosts whose
/// clocks disagree still agree); tests pass a ``ManualWallClock`` and move time themselves
/// instead of sleeping.
public protocol WallClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The machine's clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told: a lease expires when the test says so, not after a sleep.
public final class ManualWallClock: WallClock {
    private let current: Locked<Date>

    /// A clock showing `start` (default: the machine's time when made).
    public init(_ start: Date = Date()) { current = Locked(start) }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock `seconds` forward.
    public func advance(by seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
