import FeedRemote
import FeedTestSupport
import Foundation
import Testing

/// The clip cache against a real HTTP server on loopback (`range_server.py`).
@Suite("ClipCache")
struct ClipCacheTests {
    /// `count` bytes of a reproducible pattern that differs with `seed`.
    static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ ($0 >> 11)) })
    }

    /// A folder served by a range server, with clips `a`, `b`, `c` of `size` bytes each.
    struct Setting {
        let scratch: ScratchFolder
        let site: URL
        let server: RangeServer
        var cacheFolder: URL { scratch.url("cache") }

        init(size: Int = 1 << 20, cut: Int? = nil, stall: Int? = nil) async throws {
            scratch = try ScratchFolder()
            site = scratch.url("site")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            for (index, name) in ["a", "b", "c"].enumerated() {
                try ClipCacheTests.bytes(size, seed: UInt8(index)).write(to: site.appendingPathComponent("\(name).mp4"))
            }
            server = try await RangeServer(site, log: scratch.url("requests.log"), cut: cut, stall: stall)
        }

        /// The product's default idle timeout unless `timeout` is given: the suite runs beside
        /// hundreds of others on two cores, where a download may wait its turn for seconds.
        func cache(limit: Int64 = ClipCache.defaultLimit, timeout: TimeInterval? = nil) -> ClipCache {
            timeout.map { ClipCache(folder: cacheFolder, limit: limit, timeout: $0) } ?? ClipCache(folder: cacheFolder, limit: limit)
        }

        func source(_ name: String) throws -> Data { try Data(contentsOf: site.appendingPathComponent("\(name).mp4")) }

        func gets(_ name: String) -> [String] { server.requests().filter { $0.hasPrefix("GET /\(name).mp4 ") } }
    }

    @Test("a miss downloads the clip whole; the next call is a hit without a request")
    func missThenHit() async throws {
        let setting = try await Setting()
        let cache = setting.cache()

        let first = try await cache.file(for: setting.server.url("a.mp4"))
        let second = try await cache.file(for: setting.server.url("a.mp4"))

        #expect(try Data(contentsOf: first) == setting.source("a"))
        #expect(second == first)
        #expect(setting.gets("a") == ["GET /a.mp4 - 200"])
        #expect(cache.entries().map(\.url) == [setting.server.url("a.mp4").absoluteString])
        #expect(cache.entries().first?.complete == true && cache.entries().first?.bytes == 1 << 20)
    }

    @Test("partial downloads count against the cache's size: a stale part is evicted, least recently used first, like a clip")
    func partsAreEvicted() async throws {
        let setting = try await Setting(cut: 300_000)
        // c's download is cut: a resumable part stays (up to 300 kB: a connection the server
        // closes may lose what was still in flight, so its size is read, not assumed).
        await #expect(throws: RemoteError.self) { try await setting.cache().file(for: setting.server.url("c.mp4")) }
        let part = try #require(setting.cache().entries().first)
        #expect(!part.complete && part.bytes > 0 && part.bytes <= 300_000, "\(part)")
        // The cache's limit holds a whole clip (1 MiB) but not it and c's part.
        let limit = Int64(1 << 20) + part.bytes - 1
        let cache = setting.cache(limit: limit)
        // a's is cut, then resumed whole (1 MiB): with c's part the cache is over its limit.
        await #expect(throws: RemoteError.self) { try await cache.file(for: setting.server.url("a.mp4")) }
        _ = try await cache.file(for: setting.server.url("a.mp4"))
        let left = cache.entries()
        #expect(left.count == 1 && left.first?.complete == true && left.first?.url == setting.server.url("a.mp4").absoluteString, "\(left)")
        #expect(cache.totalBytes <= limit)
    }

    @Test("an interrupted download leaves a part that the next call resumes with Range; the clip is byte-identical")
    func resumes() async throws {
        let setting = try await Setting(cut: 300_000)
        let cache = setting.cache()

        await #expect(throws: RemoteError.self) { try await cache.file(for: setting.server.url("a.mp4")) }
        let partial = try #require(cache.entries().first)
        #expect(!partial.complete && partial.bytes > 0 && partial.bytes <= 300_000, "\(partial)")
        #expect(try !FileManager.default.contentsOfDirectory(atPath: setting.cacheFolder.path).contains { $0.hasSuffix(".clip") })

        let file = try await cache.file(for: setting.server.url("a.mp4"))

        #expect(try Data(contentsOf: file) == setting.source("a"))
        #expect(setting.gets("a") == ["GET /a.mp4 - 200", "GET /a.mp4 bytes=\(partial.bytes)- 206"])
        #expect(cache.entries().count == 1 && cache.entries().first?.complete == true)
    }

    @Test("a server that sends its head and a little of the body, then hangs up: every byte sent is in the part, and the next call resumes after them")
    func shortBodyKept() async throws {
        let setting = try await Setting(size: 100_000, cut: 30_000)
        let cache = setting.cache()

        await #expect(throws: RemoteError.truncated(url: setting.server.url("a.mp4").absoluteString, expected: 100_000, received: 30_000)) {
            try await cache.file(for: setting.server.url("a.mp4"))
        }
        #expect(cache.entries().first?.bytes == 30_000, "\(cache.entries())")
        let file = try await cache.file(for: setting.server.url("a.mp4"))
        #expect(try Data(contentsOf: file) == setting.source("a"))
        #expect(setting.gets("a") == ["GET /a.mp4 - 200", "GET /a.mp4 bytes=30000- 206"])
    }

    @Test("a download that stops receiving bytes fails as stalled after the idle timeout, keeping its part for the next call")
    func stalls() async throws {
        let setting = try await Setting(stall: 200_000)
        let url = setting.server.url("a.mp4")

        await #expect(throws: RemoteError.stalled(url: url.absoluteString, seconds: 2)) {
            try await setting.cache(timeout: 2).file(for: url)
        }
        let partial = try #require(setting.cache().entries().first)
        #expect(!partial.complete && partial.bytes > 0 && partial.bytes <= 200_000, "\(partial)")

        let file = try await setting.cache().file(for: url)

        #expect(try Data(contentsOf: file) == setting.source("a"))
        #expect(setting.gets("a").count == 2 && setting.gets("a").last == "GET /a.mp4 bytes=\(partial.bytes)- 206", "\(setting.gets("a"))")
    }

    @Test("a clip that changed on the server while half downloaded is fetched again from the start")
    func changedClipRestarts() async throws {
        let setting = try await Setting(cut: 300_000)
        let cache = setting.cache()
        await #expect(throws: RemoteError.self) { try await cache.file(for: setting.server.url("b.mp4")) }
        let partial = try #require(cache.entries().first).bytes
        let replacement = Self.bytes(700_000, seed: 9)
        try replacement.write(to: setting.site.appendingPathComponent("b.mp4"))

        let file = try await cache.file(for: setting.server.url("b.mp4"))

        #expect(try Data(contentsOf: file) == replacement)
        // If-Range did not match the new ETag: the whole new clip came back (200), not a range.
        #expect(setting.gets("b") == ["GET /b.mp4 - 200", "GET /b.mp4 bytes=\(partial)- 200"])
    }

    @Test("over the bound, the least recently used clip goes; the one just used and the new one stay")
    func evicts() async throws {
        let setting = try await Setting()
        let cache = setting.cache(limit: 2 * (1 << 20) + (1 << 19))
        let a = setting.server.url("a.mp4"), b = setting.server.url("b.mp4"), c = setting.server.url("c.mp4")
        _ = try await cache.file(for: a)
        _ = try await cache.file(for: b)
        _ = try await cache.file(for: a)  // a is now more recent than b

        _ = try await cache.file(for: c)

        #expect(Set(cache.entries().map(\.url)) == [a.absoluteString, c.absoluteString])
        #expect(cache.totalBytes <= cache.limit)
        _ = try await cache.file(for: a)
        #expect(setting.gets("a").count == 1, "a stayed cached")
        _ = try await cache.file(for: b)
        #expect(setting.gets("b").count == 2, "b was evicted, so it is downloaded again")
    }

    @Test("two caches on one folder fetching the same clip at once download it once; both get it whole")
    func sharedFolder() async throws {
        let setting = try await Setting(size: 4 << 20)
        let one = setting.cache(), two = setting.cache()
        let url = setting.server.url("c.mp4")

        async let first = one.file(for: url)
        async let second = two.file(for: url)
        let files = try await [first, second]

        #expect(files[0] == files[1])
        #expect(try Data(contentsOf: files[0]) == setting.source("c"))
        #expect(setting.gets("c").count == 1, "\(setting.server.requests())")
    }

    @Test("a missing clip is an HTTP 404 error naming the URL; nothing is left in the cache")
    func missing() async throws {
        let setting = try await Setting()
        let cache = setting.cache()
        let url = setting.server.url("nope.mp4")

        await #expect(throws: RemoteError.status(url: url.absoluteString, code: 404, reason: "Not Found")) {
            try await cache.file(for: url)
        }
        #expect(cache.entries().isEmpty)
    }

    @Test("clear removes every clip and partial download and says how many bytes it freed")
    func clear() async throws {
        let setting = try await Setting()
        let cache = setting.cache()
        _ = try await cache.file(for: setting.server.url("a.mp4"))
        _ = try await cache.file(for: setting.server.url("b.mp4"))

        // clear() skips an entry whose lock is held. Right after file(for:) let go of it, a
        // child that another test of this process is spawning may still hold a copy of the
        // lock's descriptor (between fork and exec), so the entry looks in use for a moment:
        // clear again until nothing is left (2 s at most).
        var freed: Int64 = 0
        try await waitUntil(timeout: 2, every: 0.02) {
            freed += try cache.clear()
            return cache.entries().isEmpty
        }

        #expect(freed >= 2 << 20)
        #expect(cache.entries().isEmpty && cache.totalBytes == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setting.cacheFolder.path).allSatisfy { $0.hasPrefix(".") })
    }

    @Test("the default folder follows FEED_HOME (everything feed keeps moves with it), else XDG_CACHE_HOME, else ~/.cache")
    func defaultFolder() {
        #expect(ClipCache.defaultFolder(environment: ["FEED_HOME": "/srv/feed", "XDG_CACHE_HOME": "/tmp/x"]).path == "/srv/feed/cache/clips")
        #expect(ClipCache.defaultFolder(environment: ["XDG_CACHE_HOME": "/tmp/x", "HOME": "/home/u"]).path == "/tmp/x/feed/clips")
        #expect(ClipCache.defaultFolder(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.cache/feed/clips")
        #expect(ClipCache.defaultFolder(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/feed/clips")
    }
}
