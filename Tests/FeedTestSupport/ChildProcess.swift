import FeedCore
import Foundation

/// A started child process whose exit async code awaits without holding a thread.
///
/// The termination handler is set before `run()`, so no exit goes unseen, and it wakes every
/// waiter. `Process.waitUntilExit()` would instead block a thread of Swift's cooperative pool
/// (two on a 2-core machine), which every other test's tasks need.
/// ```swift
/// let child = try ChildProcess(process)      // configured, not yet run: runs it
/// child.signal(SIGINT)
/// let status = await child.exitStatus()      // process.terminationReason is readable now
/// ```
/// Short-lived children start with ``start(_:)`` or ``run(_:limited:)``, which take a permit of
/// ``ProcessLimiter/shared`` until the exit; long-lived servers and workers use `init`, which
/// takes none.
public final class ChildProcess: Sendable {
    /// The process: its arguments and, once it has exited, `terminationReason`.
    public let process: Process
    private let state = Locked(State())

    /// When `run()` was called.
    public let started: ContinuousClock.Instant

    private struct State {
        var exited: ContinuousClock.Instant?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Runs `process` (configured, not yet run), its termination handler set first; no permit.
    /// - Throws: what `Process.run()` throws (no such executable …).
    public convenience init(_ process: Process) throws {
        try self.init(process, atExit: nil)
    }

    private init(_ process: Process, atExit: (@Sendable () -> Void)?) throws {
        self.process = process
        process.terminationHandler = { [state] _ in
            let waiters = state.withLock { state in
                state.exited = .now
                defer { state.waiters = [] }
                return state.waiters
            }
            atExit?()
            for waiter in waiters { waiter.resume() }
        }
        started = .now
        try process.run()
    }

    /// Waits for a permit of ``ProcessLimiter/shared``, then runs `process` (configured, not
    /// yet run); the permit goes back at the exit. For a short-lived child the test signals or
    /// watches while it runs; the test must not need another permit before this child can end.
    /// - Throws: what `Process.run()` throws.
    public static func start(_ process: Process) async throws -> ChildProcess {
        let limiter = ProcessLimiter.shared
        await limiter.acquire()
        do {
            return try ChildProcess(process, atExit: { Task { await limiter.release() } })
        } catch {
            await limiter.release()
            throw error
        }
    }

    /// The child's process id (another process's, perhaps, once this one has exited).
    public var pid: Int32 { process.processIdentifier }

    /// Whether the child has exited (and been reaped).
    public var hasExited: Bool { exited != nil }

    /// When the child's exit was seen (right after it was reaped), once it has exited.
    public var exited: ContinuousClock.Instant? { state.withLock { $0.exited } }

    /// Seconds from the start to the exit, once it has exited: the child's own time, without any
    /// wait for a permit before or for a thread after.
    public var seconds: Double? { exited.map { ($0 - started) / .seconds(1) } }

    /// Waits for the exit without blocking a thread; the exit status, or the number of the
    /// signal that ended it (`process.terminationReason` tells which).
    @discardableResult
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let exited = state.withLock { state in
                if state.exited == nil { state.waiters.append(waiter) }
                return state.exited != nil
            }
            if exited { waiter.resume() }
        }
        return process.terminationStatus
    }

    /// Waits `seconds` at most for the exit; whether it came.
    public func exits(within seconds: Double) async -> Bool {
        (try? await waitUntil(timeout: seconds, every: 0.02) { self.hasExited }) ?? hasExited
    }

    /// Sends signal `number`, unless the child has exited (its pid may be another's by then).
    public func signal(_ number: Int32) {
        if !hasExited { kill(pid, number) }
    }

    /// Sends signal `number`, waits `timeout` seconds at most, then SIGKILL; the exit status.
    @discardableResult
    public func stop(_ number: Int32 = SIGTERM, timeout: Double) async -> Int32 {
        signal(number)
        if await !exits(within: timeout) { signal(SIGKILL) }
        return await exitStatus()
    }

    /// Runs `process` to its end and returns it exited. With `limited`, it runs under a permit
    /// of ``ProcessLimiter/shared`` (waiting for one first): short-lived runs such as `feed`,
    /// ffmpeg or python. Runs that observe a long-lived server or worker mid-job, where a wait
    /// in the queue would let the state they look for pass (curl against `feed serve`, `feed
    /// jobs` while a worker works), pass `limited: false`.
    /// - Throws: what `Process.run()` throws.
    @discardableResult
    public static func run(_ process: Process, limited: Bool = true) async throws -> ChildProcess {
        try await run(limited: limited) { process }
    }

    /// ``run(_:limited:)`` of the process `prepare` makes once the permit is held: files it opens
    /// for the child's streams are not held open by the hundreds of runs waiting in the queue.
    /// Descriptors matter: past about 1,350 open in this process, Foundation's own Process.run
    /// (Swift 6.3.1) over-reads /proc/self/fd and crashes (swift-corelibs-foundation #5472).
    @discardableResult
    public static func run(limited: Bool = true, _ prepare: () throws -> Process) async throws -> ChildProcess {
        let limiter = ProcessLimiter.shared
        if limited { await limiter.acquire() }
        let child: ChildProcess
        do {
            let process = try prepare()
            var release: (@Sendable () -> Void)?
            if limited { release = { @Sendable in Task { await limiter.release() } } }
            child = try ChildProcess(process, atExit: release)
        } catch {
            if limited { await limiter.release() }
            throw error
        }
        await child.exitStatus()
        return child
    }
}
