/// What can go wrong scraping a page. Each message is one line naming the page.
public enum ScrapeError: FeedFailure, Equatable {
    /// The page has no video this scraper knows how to find.
    case noVideos(page: String)
    /// The page could not be parsed (the parser ran out of memory).
    case parse(page: String)
    /// The base URL given for the page's relative links is not an absolute URL.
    case badBase(String)
    /// The page is over ``PageScraper/maxPageBytes``.
    case pageTooLarge(page: String, limit: Int)
    /// Parsing the page needs more than `limit` bytes of memory (dense or deeply nested markup).
    case tooComplex(page: String, limit: Int)
    /// Fetching and parsing the page took longer than `seconds` (`--timeout`).
    case timedOut(page: String, seconds: Double)

    public var kind: FailureKind {
        switch self {
        case .noVideos: .invalidData
        case .parse, .timedOut: .io
        case .badBase: .usage
        case .pageTooLarge, .tooComplex: .invalidData
        }
    }

    public var description: String {
        switch self {
        case let .noVideos(page):
            "\(page): no videos found (looked for <link rel=prefetch as=video>, <video src>, <video><source src> and og:video)"
        case let .parse(page): "\(page): cannot parse the page (out of memory)"
        case let .badBase(text): "base URL \(text): expected an absolute URL such as https://example.com/"
        case let .pageTooLarge(page, limit): "\(page): the page is larger than \(limit >> 20) MiB; not parsed"
        case let .tooComplex(page, limit):
            "\(page): parsing the page needs more than \(limit >> 20) MiB (too many or too deeply nested elements); not parsed"
        case let .timedOut(page, seconds): "\(page): not read and parsed within \(seconds.shown) s"
        }
    }
}
