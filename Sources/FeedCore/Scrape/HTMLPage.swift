import CHTML
import Foundation

/// The video URLs of one HTML page as written in it, in document order: the Swift owner of the
/// shim's parsed page (gumbo, an HTML5 parser, so broken markup parses as a browser parses it).
struct HTMLPage {
    /// Where a URL was found.
    enum Source: Int32, Sendable {
        case prefetchLink = 1, videoSource = 2, sourceElement = 3, openGraph = 4
    }

    /// One video URL: as written, where, and the enclosing `<video>`'s poster.
    struct Item: Equatable, Sendable {
        var url: String
        var source: Source
        var poster: String?
    }

    var items: [Item] = []
    /// The first `<base href>`, as written.
    var base: String?
    /// The `<title>` text.
    var title: String?

    /// The most memory the parser may hold for one page: a dense page costs it about 80 times
    /// its size (a node per element and text run), so a few MB of real markup fit, a 10 MB page
    /// of `<p>` does not.
    static let maxParserMemory = 512 << 20

    /// Parses `bytes` (UTF-8 HTML) with at most ``maxParserMemory`` and, when given, `timeout`
    /// seconds (deeply nested markup costs the parser quadratic time).
    /// - Throws: ``ScrapeError/tooComplex(page:limit:)``, ``ScrapeError/timedOut(page:seconds:)``,
    ///   or ``ScrapeError/parse(page:)`` when the parser runs out of memory.
    init(_ bytes: [UInt8], page: String, timeout: Double? = nil) throws(ScrapeError) {
        var handle: OpaquePointer?
        var limits = fh_limits(max_memory: Self.maxParserMemory,
                               timeout_ms: timeout.map { Int(max(1, ($0 * 1000).rounded(.up))) } ?? 0)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { fh_page_parse($0, buffer.count, &limits, &handle) }
            } ?? fh_page_parse("", 0, &limits, &handle)
        }
        switch status {
        case 0: break
        case Int32(FH_ERR_TOO_LARGE): throw .tooComplex(page: page, limit: Self.maxParserMemory)
        case Int32(FH_ERR_TIMED_OUT): throw .timedOut(page: page, seconds: timeout ?? 0)
        default: throw .parse(page: page)
        }
        guard let handle else { throw .parse(page: page) }
        defer {
            var owned: OpaquePointer? = handle
            fh_page_free(&owned)
        }
        let count = fh_page_count(handle)
        items.reserveCapacity(Int(count))
        for index in 0..<count {
            var url: UnsafePointer<CChar>?, kind: Int32 = 0, poster: UnsafePointer<CChar>?
            guard fh_page_item(handle, index, &url, &kind, &poster) == 0, let url, let source = Source(rawValue: kind) else { continue }
            items.append(Item(url: String(cString: url), source: source, poster: poster.map { String(cString: $0) }))
        }
        base = fh_page_base(handle).map { String(cString: $0) }
        title = fh_page_title(handle).map { String(cString: $0) }
    }
}
