import Synchronization

/// A flag set once, polled by work that runs on its own thread (a stack's frames, an HLS
/// packaging's pictures): a job's lease was lost, or the task running it was cancelled.
public final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// A flag not set.
    public init() {}

    /// Whether it was set.
    public var isSet: Bool { value.load(ordering: .relaxed) }
    /// Sets it (for good).
    public func set() { value.store(true, ordering: .relaxed) }
}
