import FeedCore

/// Lets a progress write through every 2 % (the stacking thread calls it per frame).
final class ProgressThrottle: Sendable {
    private let last = Locked<Double>(-1)

    /// Whether `fraction` (0…1) is worth writing.
    func due(_ fraction: Double) -> Bool {
        last.withLock { value in
            guard fraction - value >= 0.02 || fraction >= 1 else { return false }
            value = fraction
            return true
        }
    }
}
