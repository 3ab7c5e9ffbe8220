import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore
@testable import FeedJobs

/// A job's progress reaches its store one write at a time, in order, newest value only.
@Suite("ProgressWriter")
struct ProgressWriterTests {
    /// The writes seen, and whether two ever ran at once; the first write waits until `release`.
    actor Store {
        var written: [Double] = []
        var running = 0
        var overlapped = false
        private var released = false
        private var gate: CheckedContinuation<Void, Never>?

        func write(_ value: Double) async {
            running += 1
            if running > 1 { overlapped = true }
            if written.isEmpty && !released { await withCheckedContinuation { gate = $0 } }
            written.append(value)
            running -= 1
        }

        func release() {
            released = true
            gate?.resume()
            gate = nil
        }
        var started: Bool { running > 0 || !written.isEmpty }
    }

    @Test("while a write is held, later values wait and only the newest is written; writes never overlap; finish waits for the last")
    func orderedAndCoalesced() async throws {
        let store = Store()
        let progress = ProgressWriter { value in await store.write(value) }
        progress.report(0.1)
        #expect(try await waitUntil(timeout: 10, every: 0.002) { await store.started })
        // Reported from another thread while the first write is held, as the encoder's thread does.
        let reporter = Thread { for value in [0.2, 0.3, 0.4, 0.5] { progress.report(value) } }
        reporter.start()
        try await waitUntil(timeout: 10, every: 0.002) { reporter.isFinished }
        await store.release()
        await progress.finish()
        #expect(await store.written == [0.1, 0.5])
        #expect(await !store.overlapped)
    }
}
