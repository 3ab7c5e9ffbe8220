import FeedRemote
import FeedTestSupport
import Foundation
import Testing

/// Redirects are followed by feed itself, each target checked: a server's `Location` of
/// `http://127.0.0.1:99999/` once stopped the process (the HTTP library's own following).
@Suite("Redirects of feeds, pages and clips")
struct RedirectTests {
    struct Site {
        let scratch: ScratchFolder
        let server: RangeServer
        let clip = ClipCacheTests.bytes(100_000, seed: 9)

        init() async throws {
            scratch = try ScratchFolder()
            let site = scratch.url("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            try clip.write(to: site.appendingPathComponent("clip.mp4"))
            for (name, location) in [("hop.mp4", "/clip.mp4"), ("two.mp4", "hop.mp4"), ("bad.mp4", "http://127.0.0.1:99999/x"),
                                     ("zero.mp4", "http://127.0.0.1:0/x"), ("file.mp4", "file:///etc/passwd"), ("loop.mp4", "/loop.mp4"),
                                     ("nowhere.mp4", "")] {
                try Data(location.utf8).write(to: site.appendingPathComponent(name + ".redirect"))
            }
            server = try await RangeServer(site, log: scratch.url("requests.log"))
        }
    }

    @Test("HTTPFetch (remote feeds, scraped pages): relative hops are followed to the clip; a port no connection can have, file:, a loop and no Location are one error each")
    func fetch() async throws {
        let site = try await Site()
        let body = try await HTTPFetch.get(site.server.url("two.mp4"))
        #expect(Data(body.bytes) == site.clip && body.url.path == "/clip.mp4")
        for (name, words) in [("bad.mp4", "port 99999 is not 1…65535"), ("zero.mp4", "port 0 is not 1…65535"),
                              ("file.mp4", "only http:// and https:// URLs"), ("loop.mp4", "more than 5 redirects"),
                              ("nowhere.mp4", "redirect without a usable Location")] {
            do {
                _ = try await HTTPFetch.get(site.server.url(name))
                Issue.record("\(name) was fetched")
            } catch {
                #expect(error.description.contains(words), "\(name): \(error.description)")
            }
        }
        await #expect(throws: RemoteError.self) { try await HTTPFetch.get(URL(string: "http://127.0.0.1:99999/feed.json")!) }
        site.server.stop()
    }

    @Test("the clip cache follows the same way, and refuses the same targets")
    func clips() async throws {
        let site = try await Site()
        let cache = ClipCache(folder: site.scratch.url("cache"), limit: 1 << 30)
        let file = try await cache.file(for: site.server.url("two.mp4"))
        #expect(try Data(contentsOf: file) == site.clip)
        for (name, words) in [("bad.mp4", "port 99999 is not 1…65535"), ("file.mp4", "only http:// and https:// URLs"), ("loop.mp4", "more than 5 redirects")] {
            do {
                _ = try await cache.file(for: site.server.url(name))
                Issue.record("\(name) was downloaded")
            } catch {
                #expect("\(error)".contains(words), "\(name): \(error)")
            }
        }
        await #expect(throws: RemoteError.self) { try await cache.file(for: URL(string: "http://127.0.0.1:99999/a.mp4")!) }
        site.server.stop()
    }
}
