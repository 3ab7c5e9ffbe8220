import Foundation
import Testing
@testable import FeedCore

@Suite("PageScraper")
struct PageScraperTests {
    static let page = URL(string: "https://example.com/feed/today.html")!

    static func urls(_ html: String, base: URL? = page) throws -> [String] {
        try PageScraper.videos(in: Array(html.utf8), page: "t.html", base: base).map { $0.videoReference?.text ?? "" }
    }

    @Test("every kind of reference, in document order, relative ones resolved against the page's URL")
    func kinds() throws {
        let html = """
            <html><head><meta property="og:video:url" content="/og.mp4"><link rel="prefetch" as="video" href="a.mp4"></head>
            <body><video src="../b.mp4" poster="b.jpg"></video><video><source src="c.webm" type="video/webm"><source src="c.mp4"></video></body></html>
            """
        #expect(try Self.urls(html) == ["https://example.com/og.mp4", "https://example.com/feed/a.mp4", "https://example.com/b.mp4",
                                        "https://example.com/feed/c.webm", "https://example.com/feed/c.mp4"])
        let videos = try PageScraper.videos(in: Array(html.utf8), page: "t.html", base: Self.page)
        #expect(videos[2].thumbnailReference?.text == "https://example.com/feed/b.jpg")
        #expect(videos[3].thumbnailReference == nil && videos[0].username == "example.com")
    }

    @Test("only prefetch links for video: rel is a token list, as and rel are case-insensitive")
    func prefetchRules() throws {
        let html = """
            <link rel="dns-prefetch" as="video" href="no1.mp4"><link rel="prefetch" as="audio" href="no2.mp4">
            <link rel="preload" as="video" href="no3.mp4"><link rel="prefetch" href="no4.mp4">
            <link rel="  next PREFETCH " as="Video" href="yes.mp4"><audio src="no5.mp3"></audio><source src="no6.mp4">
            """
        #expect(try Self.urls(html) == ["https://example.com/feed/yes.mp4"])
    }

    @Test("<base href> wins over the page's URL and is itself relative to it; --base stands in for the page's URL")
    func base() throws {
        let html = #"<video src="x.mp4"></video><base href="/cdn/v/"><video src="y.mp4"></video>"#
        #expect(try Self.urls(html) == ["https://example.com/cdn/v/x.mp4", "https://example.com/cdn/v/y.mp4"])
        #expect(try Self.urls(#"<video src="x.mp4">"#, base: URL(string: "http://h.test/a/")) == ["http://h.test/a/x.mp4"])
        #expect(throws: ScrapeError.noVideos(page: "t.html"), "nothing to resolve against: not a clip") {
            try Self.urls(#"<video src="x.mp4">"#, base: nil)
        }
    }

    @Test("duplicates after resolution appear once, where first seen; ids are stable and differ by URL")
    func duplicatesAndIDs() throws {
        let html = #"<video src="a.mp4"></video><link rel=prefetch as=video href="https://example.com/feed/a.mp4"><video src="./a.mp4"><source src=b.mp4></video>"#
        let first = try PageScraper.videos(in: Array(html.utf8), page: "t", base: Self.page)
        let again = try PageScraper.videos(in: Array(html.utf8), page: "t", base: Self.page)
        #expect(first.map { $0.videoReference?.text } == ["https://example.com/feed/a.mp4", "https://example.com/feed/b.mp4"])
        #expect(first.map(\.id) == again.map(\.id))
        #expect(first[0].id != first[1].id && first[0].id.description.hasPrefix("w") && first[0].id.description.count == 17)
    }

    @Test("broken markup parses as a browser would: unclosed and stray tags, unquoted attributes, bad bytes")
    func brokenMarkup() throws {
        var bytes = Array("<div><p><video src=one.mp4 poster=p.png><table><td><video src='two.mp4'></p></video></video></div></span><video src=\"three".utf8)
        bytes += [0xFF, 0xFE] + Array(".mp4\"><!-- <video src=\"commented.mp4\"> -->".utf8)
        let found = try PageScraper.videos(in: bytes, page: "t", base: Self.page).map { $0.videoReference?.text ?? "" }
        #expect(found.prefix(2) == ["https://example.com/feed/one.mp4", "https://example.com/feed/two.mp4"])
        #expect(found.count == 3 && found[2].hasPrefix("https://example.com/feed/three") && !found.contains { $0.contains("commented") })
    }

    @Test("non-clip schemes are skipped; a page with none left has no videos")
    func schemes() throws {
        let html = #"<video src="data:video/mp4;base64,AAAA"></video><video src="javascript:alert(1)"></video><video src="blob:https://x/1"></video><video src="  "></video>"#
        #expect(throws: ScrapeError.noVideos(page: "t.html")) { try Self.urls(html) }
        #expect(throws: ScrapeError.noVideos(page: "t.html")) { try Self.urls("") }
        #expect(try Self.urls(#"<video src="file:///clips/a.mp4">"#) == ["file:///clips/a.mp4"])
    }

    /// gumbo's scope checks make such pages quadratic in time (20,000 deep: 0.6 s; 50,000: 3.7 s),
    /// never in memory: parse errors, which would each copy the open-element stack, are not kept.
    @Test("markup nested 20,000 deep neither overflows the stack nor keeps a parse error per element")
    func deepNesting() throws {
        let html = String(repeating: "<div>", count: 20_000) + #"<video src="deep.mp4">"#
        #expect(try Self.urls(html) == ["https://example.com/feed/deep.mp4"])
    }

    @Test("the title, whitespace collapsed, is every video's description")
    func title() throws {
        let videos = try PageScraper.videos(in: Array("<title>\n  Beach   day\t</title><video src=a.mp4>".utf8), page: "t", base: Self.page)
        #expect(videos.first?.description == "Beach day")
    }

    @Test("a page fetched over the network never names a local file: file: links, posters and a file: <base> are dropped; a local page keeps them")
    func remotePageNamesNoFile() throws {
        let html = #"<base href="file:///etc/"><video src="passwd" poster="file:///etc/hosts"></video><video src="file:///root/.ssh/id_rsa"></video><video src="https://cdn.example/a.mp4"></video><video src="b.mp4"></video>"#
        let remote = try PageScraper.videos(in: Array(html.utf8), page: "t", base: URL(string: "https://site.example/feed/")!, remote: true)
        #expect(remote.map { $0.videoReference?.text ?? "" } == ["https://site.example/feed/passwd", "https://cdn.example/a.mp4", "https://site.example/feed/b.mp4"])
        #expect(remote.allSatisfy { $0.thumbnailReference == nil })
        let local = try PageScraper.videos(in: Array(html.utf8), page: "t", base: URL(fileURLWithPath: "/srv/page.html"))
        #expect(local.map { $0.videoReference?.text ?? "" } == ["file:///etc/passwd", "file:///root/.ssh/id_rsa", "https://cdn.example/a.mp4", "file:///etc/b.mp4"])
    }
}
