/// Writes a running job's progress to its store from one task, one write at a time, in the order
/// reported: a value reported while a write is under way waits, and only the newest one waiting
/// is written. (A task per value, as before, could land 0.5 after 0.6: progress that went back.)
/// ``report(_:)`` never waits, so the encoder's thread that calls it is never held by the store.
final class ProgressWriter: Sendable {
    private let continuation: AsyncStream<Double>.Continuation
    private let writer: Task<Void, Never>

    /// Starts the task that calls `write` with each value to write.
    init(_ write: @escaping @Sendable (Double) async -> Void) {
        let (values, continuation) = AsyncStream<Double>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.continuation = continuation
        writer = Task {
            for await value in values { await write(value) }
        }
    }

    /// Queues `fraction`, replacing a value still waiting.
    func report(_ fraction: Double) {
        continuation.yield(fraction)
    }

    /// Takes no more values; the one waiting, if any, is still written.
    func close() {
        continuation.finish()
    }

    /// ``close()``, then waits until the last write is done.
    func finish() async {
        continuation.finish()
        await writer.value
    }
}
