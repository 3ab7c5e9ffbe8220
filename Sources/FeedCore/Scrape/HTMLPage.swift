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

    /// Parses `bytes` (UTF-8 HTML).
    /// - Throws: ``ScrapeError/parse(page:)`` when the parser runs out of memory.
    init(_ bytes: [UInt8], page: String) throws(ScrapeError) {
        var handle: OpaquePointer?
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { fh_page_parse($0, buffer.count, &handle) }
            } ?? fh_page_parse("", 0, &handle)
        }
        guard status == 0, let handle else { throw .parse(page: page) }
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
