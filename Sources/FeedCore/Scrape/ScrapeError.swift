/// What can go wrong scraping a page. Each message is one line naming the page.
public enum ScrapeError: FeedFailure, Equatable {
    /// The page has no video this scraper knows how to find.
    case noVideos(page: String)
    /// The page could not be parsed (the parser ran out of memory).
    case parse(page: String)
    /// The base URL given for the page's relative links is not an absolute URL.
    case badBase(String)

    public var kind: FailureKind {
        switch self {
        case .noVideos: .invalidData
        case .parse: .io
        case .badBase: .usage
        }
    }

    public var description: String {
        switch self {
        case let .noVideos(page):
            "\(page): no videos found (looked for <link rel=prefetch as=video>, <video src>, <video><source src> and og:video)"
        case let .parse(page): "\(page): cannot parse the page (out of memory)"
        case let .badBase(text): "base URL \(text): expected an absolute URL such as https://example.com/"
        }
    }
}
