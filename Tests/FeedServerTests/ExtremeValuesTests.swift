import Foundation
import FeedCore
import FeedSQLite
import FeedTestSupport
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import FeedServer

/// Values at the edges of what a feed, a file or a request may hold, each of which once stopped
/// the whole server (Swift ends the process on an overflow or a Double no Int holds). In process:
/// a crash here would end the test run itself.
@Suite("Extreme values reach the server")
struct ExtremeValuesTests {
    @Test("a feed video of duration 1e300: the Pexels routes answer, its duration Int.max")
    func hugeDuration() async throws {
        let feed = try FeedLoader.load(bytes: Array(#"{"videos":[{"id":1,"username":"a","description":"x","video":"https://e.example/a.mp4","duration":1e300}]}"#.utf8),
                                       source: "huge.json")
        let folder = try ScratchFolder()
        let fixture = try ServerFixture(folder: folder, roll: try Roll(paths: RollPaths(home: folder.url("home")), prober: MediaRecordingProber()), feed: feed)
        try await fixture.test { client in
            for path in ["/v1/videos/popular", "/v1/videos/search?query=x"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path): \(response.text)")
                    let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                    let video = (object?["videos"] as? [[String: Any]])?.first
                    #expect(video?["duration"] as? Int == .max, "\(path): \(response.text)")
                }
            }
        }
    }

    @Test("a local clip and poster dated after 2262 (past Int64's nanoseconds): /videos, the clip and the poster answer")
    func farFutureFile() async throws {
        let folder = try ScratchFolder()
        let clip = try TestMedia.seededClip(folder.url("clip.mp4").path, seed: 7)
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: folder.url("poster.jpg"))
        // 2300-01-01.
        var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 0), timespec(tv_sec: 10_413_792_000, tv_nsec: 0)]
        for file in [clip, folder.url("poster.jpg").path] { #expect(utimensat(AT_FDCWD, file, &times, 0) == 0) }
        let text = #"{"videos":[{"id":1,"username":"a","description":"x","video":"clip.mp4","thumbnail":"poster.jpg"}]}"#
        let feed = try FeedLoader.load(bytes: Array(text.utf8), source: folder.url("feed.json").path, folder: folder.url.path)
        let fixture = try ServerFixture(folder: folder, roll: try Roll(paths: RollPaths(home: folder.url("home")), prober: MediaRecordingProber()), feed: feed)
        try await fixture.test { client in
            for path in ["/videos", "/media/videos/1", "/media/videos/1/thumbnail"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path): \(response.text)")
                }
            }
        }
    }
}
