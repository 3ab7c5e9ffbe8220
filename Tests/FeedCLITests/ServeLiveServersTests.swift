import FeedTestSupport
import Foundation
import Testing

/// Live streams on several servers sharing one PostgreSQL catalog: the server the publisher
/// reached packages the stream; the others answer for its row and redirect its players there.
@Suite("feed serve: live streams across servers", .enabled(if: TestPostgres.url != nil))
struct ServeLiveServersTests {
    @Test("a stream published to one server: the other shows it active, redirects its playlist and files there (307, query kept; ffprobe follows), the room (viewers, hearts) is the same on both; DELETE there disconnects the publisher here and the stream becomes a recording both serve")
    func twoServers() async throws {
        let shared = try await SharedCatalog()
        let env = shared.environment
        let ingest = try await ServeProcess(["--rtmp-port", "0"], environment: env)
        let other = try await ServeProcess([], environment: env)
        let created = try await ingest.curl("/live", ["-X", "POST", "-d", #"{"title":"two servers"}"#]).json()
        let key = try #require(created["stream_key"] as? String)
        let rtmp = try #require(created["rtmp_url"] as? String)
        let idle = try await other.curl("/live", ["-X", "POST", "-d", #"{"title":"never live"}"#]).json()
        let idleID = try #require(idle["id"] as? Int)

        let folder = try ScratchFolder()
        let publisher = try ServeLiveTests.publisher(rtmp + "/" + key, seconds: 600, log: folder.url("publisher.log"))
        defer { publisher.signal(SIGKILL) }
        try await waitUntil(timeout: 30, every: 0.2) { try await other.curl("/live/1").json()["state"] as? String == "active" }
        // Two whole segments: what a player that ignores parts (ffprobe) needs to start.
        try await waitUntil(timeout: 30, every: 0.2) { try await ingest.curl("/live/1/index.m3u8").text.contains("\nseg_1.m4s\n") }

        // The other server sends players to the one that has the stream, path and query kept.
        let playlist = try await other.curl("/live/1/index.m3u8?_HLS_msn=1&_HLS_part=0")
        #expect(playlist.status == 307 && playlist.headers["location"] == ingest.base + "/live/1/index.m3u8?_HLS_msn=1&_HLS_part=0",
                "\(playlist.status) \(playlist.headers)")
        let initial = try await other.curl("/live/1/init.mp4")
        #expect(initial.status == 307 && initial.headers["location"] == ingest.base + "/live/1/init.mp4", "\(initial.headers)")
        let followed = try await other.curl("/live/1/init.mp4", ["-L"])
        #expect(followed.status == 200 && followed.headers["content-type"] == "video/mp4" && followed.body.count > 100)
        // A stream nobody published is not live anywhere: 404, not a redirect.
        #expect(try await other.curl("/live/\(idleID)/index.m3u8").status == 404)
        let playback = try #require(try await other.curl("/live/1").json()["playback_url"] as? String)
        #expect(playback.hasPrefix(other.base))
        let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", playback],
                                       limited: false)
        #expect(probe.status == 0 && probe.stdout.contains("h264,320,240"), "\(probe.stdout) \(probe.stderr)")

        // The room is the same on both: the viewers the packaging server counted (ffprobe and
        // curl, sent there), and the hearts sent through either reach the watchers of both.
        let watched = (ingest: folder.url("ingest.events"), other: folder.url("other.events"))
        let watchers = [try ServeConsoleLiveTests.watcher(ingest.base + "/live/1/events", into: watched.ingest),
                        try ServeConsoleLiveTests.watcher(other.base + "/live/1/events", into: watched.other)]
        defer { for watcher in watchers { watcher.signal(SIGKILL) } }
        func seen(_ file: URL) -> String { String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self) }
        try #require(try await waitUntil(timeout: 30, every: 0.1) { seen(watched.ingest).contains("event: viewers") && seen(watched.other).contains("event: viewers") })
        let counted = try await waitUntil(timeout: 30, every: 0.2) { (try await other.curl("/live/1").json()["viewers"] as? Int ?? 0) >= 1 }
        #expect(counted, "the other server shows the viewers the packaging server counted")
        #expect(try await other.curl("/live/1/hearts", ["-X", "POST", "-d", #"{"count":3}"#]).status == 204)
        #expect(try await ingest.curl("/live/1/hearts", ["-X", "POST", "-d", #"{"count":2}"#]).status == 204)
        let heard = try await waitUntil(timeout: 30, every: 0.1) {
            ServeConsoleLiveTests.hearts(in: seen(watched.ingest)) == 5 && ServeConsoleLiveTests.hearts(in: seen(watched.other)) == 5
        }
        #expect(heard, "ingest's watcher: \(seen(watched.ingest)) other's: \(seen(watched.other))")
        for server in [ingest, other] { #expect(try await server.curl("/live/1").json()["hearts"] as? Int == 5, "\(server.base)") }

        // Ended on the other server: the one holding the publisher sees the row and lets it go.
        let deleted = try await other.curl("/live/1", ["-X", "DELETE"])
        let deletedState = try deleted.json()["state"] as? String
        #expect(deleted.status == 200 && deletedState == "ended", "\(deleted.text)")
        #expect(await publisher.exits(within: 30), "the publisher was not disconnected")
        var shown: [String: Any] = [:]
        let recorded = try await waitUntil(timeout: 90, every: 0.25) {
            shown = try await other.curl("/live/1").json()
            return shown["recording_id"] is Int
        }
        #expect(recorded, "\(shown)")
        let id = try #require(shown["recording_id"] as? Int)
        for server in [ingest, other] {
            let media = try await server.curl("/media/roll/\(id)", ["-r", "0-7"])
            #expect(media.status == 206 && media.body.count == 8, "\(server.base): \(media.status)")
        }
        #expect(await ingest.stop() == 0)
        #expect(await other.stop() == 0)
    }
}
