import FeedCore
import Testing

/// Runs `work` on a thread of its own, off Swift's cooperative pool, and waits for it without
/// holding a thread. For test bodies that compute for seconds (a 200 MB feed, a 100,000-deep
/// nesting, under the sanitizers ten times that): run on the pool's two threads they would
/// stall every other test's tasks. Expectations stay with the caller: `work` returns values.
/// ```swift
/// let feed = try await offThePool { try FeedLoader.load(bytes: bytes, source: "big.json") }
/// ```
public func offThePool<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    try await heavyTestThreads.run(work)
}

/// Two threads for the heavy test bodies; never shut down (the test process ends first).
private let heavyTestThreads = BlockingPool(name: "test.heavy", threads: 2)

/// `.offThePool`: every test of the suite (or the one test) runs on the two heavy-test threads,
/// its synchronous body included, not on Swift's cooperative pool. For suites whose tests
/// compute for seconds in plain synchronous code (stacking, decoding, hashing, hostile input),
/// so that they never hold the pool's threads that every other test's tasks need. A test under it
/// must not block its thread waiting for one of its own tasks (they would run on the same two).
public struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(heavyTestThreads) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Runs the suite's tests (or the test) off Swift's cooperative pool: see ``OffThePoolTrait``.
    public static var offThePool: Self { Self() }
}
