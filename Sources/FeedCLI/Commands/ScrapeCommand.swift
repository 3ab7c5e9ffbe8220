import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `feed scrape PAGE`: the videos of a web page as a LIVEr feed.
struct ScrapeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrape",
        abstract: "Print the videos of a web page as a feed ({\"videos\":[…]}).",
        discussion: """
            PAGE is an HTML file, '-' for standard input, or an http(s) URL (with \
            --allow-network). The page is parsed as a browser parses it (HTML5, through gumbo), \
            so broken markup is fine. Found, in document order and without duplicates: \
            <link rel=prefetch as=video href>, <video src>, <video><source src>, and \
            <meta property="og:video"> / "og:video:url". Relative URLs resolve against the \
            page's <base href>, else against --base, else the page's own URL (a file's is \
            file:///…). Only http, https and file URLs are kept; from a page fetched over the \
            network, or given an http(s) --base, only http and https (a file: link or <base> \
            there is dropped).
            Each video's id is "w" and 16 hex digits of a hash of its URL: scraping the page \
            again keeps the ids, and with them likes and bookmarks. username is the host the \
            clip comes from ("local" for files), description the page's <title>, thumbnail \
            the <video>'s poster.
            A page is at most 16 MiB, and its parse may hold at most 512 MiB (dense or deeply \
            nested markup costs more); a URL is fetched with at most 5 redirects, and --timeout \
            (30 s) covers the fetch and the parse, a file's parse too.
            Exit status: 65 the page has no videos, or is over those limits, 66 the file does \
            not exist (or HTTP 404), 64 a URL without --allow-network, 74 the page cannot be \
            read or fetched, or not within --timeout.

            EXAMPLES:
              feed scrape page.html
              feed scrape page.html | feed list --feed -
              curl -s https://example.com/ | feed scrape - --base https://example.com/
              feed scrape https://example.com/clips --allow-network --ndjson
            """
    )

    @Argument(help: ArgumentHelp("An HTML file, '-' for standard input, or an http(s) URL.", valueName: "page"))
    var page: String

    @Option(help: ArgumentHelp("Resolve relative URLs against this URL instead of the page's own.", valueName: "url"))
    var base: String?

    @Flag(name: .long, help: "Allow fetching an http(s) PAGE.")
    var allowNetwork = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds the page may take to be fetched and parsed.", valueName: "seconds"))
    var timeout: Double = 30

    @Flag(help: ArgumentHelp("The feed as one object (the default), or one video object per line."))
    var format: ScrapeFormat = .json

    enum ScrapeFormat: String, EnumerableFlag {
        case json, ndjson
    }

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be more than 0 and at most 3600 seconds") }
    }

    func run() async throws {
        let baseURL = try base.map { text throws(ScrapeError) -> URL in
            guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty, url.host != nil || scheme == "file" else {
                throw .badBase(text)
            }
            return url
        }
        let videos: [Video]
        if let url = URL(string: page), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            guard allowNetwork else { throw RemoteError.networkNotAllowed(url: page) }
            // --timeout covers the fetch and the parse: the parse gets what the fetch left.
            let started = ContinuousClock.now
            let body = try await HTTPFetch.get(url, limit: Int64(PageScraper.maxPageBytes), timeout: timeout)
            let left = timeout - (ContinuousClock.now - started) / .seconds(1)
            guard left > 0 else { throw ScrapeError.timedOut(page: page, seconds: timeout) }
            // A parse cut short says the whole --timeout, not what was left of it.
            switch Result(catching: { () throws(ScrapeError) in
                try PageScraper.videos(in: body.bytes, page: page, base: baseURL ?? body.url, remote: true, timeout: left)
            }) {
            case .success(let found): videos = found
            case .failure(.timedOut): throw ScrapeError.timedOut(page: page, seconds: timeout)
            case .failure(let error): throw error
            }
        } else {
            // A saved page given a web --base (`curl … | feed scrape - --base https://…`) is a web page too.
            let web = ["http", "https"].contains(baseURL?.scheme?.lowercased() ?? "")
            videos = try PageScraper.videos(inFile: page, base: baseURL, remote: web, timeout: timeout)
        }
        let links: LiverJSON.Links = { LiverJSON.VideoLinks(video: $0.videoReference?.text, thumbnail: $0.thumbnailReference?.text) }
        switch format {
        case .json:
            try StandardStream.output.write(LiverJSON.videos(videos, links: links))
        case .ndjson:
            var out: [UInt8] = []
            for video in videos {
                LiverJSON.encode(video, links: links(video), into: &out)
                out.append(0x0A)
            }
            try StandardStream.output.write(out)
        }
    }
}
