import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

/// The one way off the concurrency pool: bounded, first in first out, usable as an executor.
@Suite("BlockingPool")
struct BlockingPoolTests {
    /// How long a submission may take to show, at most: a liveness bound, never a wait.
    static let bound = 180.0

    @Test("never more bodies at once than its threads, however many wait; each one's result comes back")
    func bounded() async throws {
        let pool = BlockingPool(name: "test.pool", threads: 2)
        defer { pool.shutdown() }
        let gauge = Locked((now: 0, most: 0))
        // Every body holds its thread until the test opens the gate: no timing decides what overlaps.
        let gate = DispatchSemaphore(value: 0)
        let results = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 0..<12 {
                    group.addTask {
                        try await pool.run { () throws -> Int in
                            gauge.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                            gate.wait()
                            gauge.withLock { $0.now -= 1 }
                            return n * n
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Two bodies run and ten wait for a thread. The bound is only for a pool that never gets
        // there: under ThreadSanitizer, with the whole TSan set starting at once, the tasks that
        // submit the bodies waited ~55 s for a cooperative thread (`make sanitize`, 2026-11-26).
        #expect(try await waitUntil(timeout: Self.bound) { gauge.withLock { $0.now } == 2 && pool.queued == 10 })
        #expect(gauge.withLock { $0.most } == 2)
        for _ in 0..<12 { gate.signal() }
        #expect(try await results.value.sorted() == (0..<12).map { $0 * $0 })
        #expect(gauge.withLock { $0.most } == 2, "two threads, twelve bodies: at most two ran at once")
    }

    @Test("a body's error reaches the caller, typed")
    func throwsTyped() async {
        struct Refused: Error, Equatable {}
        let pool = BlockingPool(name: "test.pool", threads: 1)
        defer { pool.shutdown() }
        await #expect(throws: Refused()) { try await pool.run { () throws(Refused) -> Int in throw Refused() } }
    }

    @Test("with one thread, bodies run in the order they were submitted")
    func firstInFirstOut() async throws {
        let pool = BlockingPool(name: "test.pool", threads: 1)
        defer { pool.shutdown() }
        let order = Locked<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        // The first body holds the only thread until the others are queued.
        let first = Task { await pool.run { gate.wait(); order.withLock { $0.append(0) } } }
        var later: [Task<Void, Never>] = []
        for n in 1...5 {
            later.append(Task { await pool.run { order.withLock { $0.append(n) } } })
            #expect(try await waitUntil(timeout: Self.bound) { pool.queued == n })
        }
        gate.signal()
        await first.value
        for task in later { await task.value }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4, 5])
    }

    @Test("as a task executor its steps run on its threads, named after it")
    func executor() async {
        let pool = BlockingPool(name: "test.exec", threads: 1)
        defer { pool.shutdown() }
        let name = await withTaskExecutorPreference(pool) { Self.threadName() }
        #expect(name == "test.exec")
    }

    /// The calling thread's name (a synchronous function: `Thread.current` is not for async code).
    static func threadName() -> String? { Thread.current.name }
}
