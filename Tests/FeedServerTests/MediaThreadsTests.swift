import Dispatch
import FeedCore
import FeedTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import FeedServer

/// Posters, storyboards and fast-start copies are made on the server's media threads, never on
/// the `--jobs` ones a stack holds for minutes.
@Suite("Media made on request, while every --jobs thread is busy")
struct MediaThreadsTests {
    @Test("a recording's file, poster and storyboard are answered while a stack holds the one --jobs thread",
          arguments: ["", "/thumb.jpg", "/storyboard.vtt", "/storyboard.jpg"])
    func answeredBesideJobs(suffix: String) async throws {
        let fixture = try ServerFixture()
        let clip = try TestMedia.seededClip(fixture.folder.url("clip.mp4").path, seed: 5, width: 96, height: 64, frames: 30)
        let recording = try #require(try await fixture.roll.add([clip]).first)
        let work = fixture.server.work
        #expect(work.threads == 1)
        // The one --jobs thread, held as a stack would hold it.
        let gate = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
        let held = Task { await work.run { holding.signal(); gate.wait() } }
        await offThePool { holding.wait() }
        defer { gate.signal() }
        let finished = Locked(false)
        let answer = Task {
            defer { finished.withLock { $0 = true } }
            return try await fixture.test { client in
                try await client.execute(uri: "/media/roll/\(recording.id)\(suffix)", method: .get) { ($0.status, $0.headers[.contentLength].flatMap { Int($0) } ?? 0) }
            }
        }
        // Either it is answered, or it waits in the held pool's queue: no time limit decides.
        let settled = try await waitUntil(timeout: 120, every: 0.01) { work.queued > 0 || finished.withLock { $0 } }
        #expect(settled)
        #expect(work.queued == 0, "GET /media/roll/\(recording.id)\(suffix) waited behind the --jobs thread")
        gate.signal()
        let (status, length) = try await answer.value
        #expect(status == .ok)
        #expect(length > 0)
        await held.value
    }
}
