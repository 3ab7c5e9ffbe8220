import Foundation
import Testing
@testable import FeedServer

@Suite("ByteRange (RFC 9110 Range)")
struct ByteRangeTests {
    @Test("one range: a-b, a-, suffix -n, clamped to the file", arguments: [
        ("bytes=0-1", ByteRange.partial(first: 0, last: 1)),
        ("bytes=0-0", .partial(first: 0, last: 0)),
        ("bytes=10-", .partial(first: 10, last: 99)),
        ("bytes=-10", .partial(first: 90, last: 99)),
        ("bytes=-1000", .partial(first: 0, last: 99)),
        ("bytes=50-5000", .partial(first: 50, last: 99)),
        ("bytes=99-99", .partial(first: 99, last: 99)),
        ("Bytes = 1-2", .partial(first: 1, last: 2)),
        ("bytes=1-2,", .partial(first: 1, last: 2)),
        ("bytes=0-99999999999999999999", .partial(first: 0, last: 99)),
    ])
    func single(header: String, expected: ByteRange) {
        #expect(ByteRange(header: header, size: 100) == expected, "\(header)")
    }

    @Test("nothing inside the file: unsatisfiable", arguments: ["bytes=100-", "bytes=100-200", "bytes=-0", "bytes=200-,300-400", "bytes=99999999999999999999-"])
    func unsatisfiable(header: String) {
        #expect(ByteRange(header: header, size: 100) == .unsatisfiable, "\(header)")
    }

    @Test("an empty file satisfies only a non-zero suffix range (RFC 9110 §14.1.1), served whole (200)")
    func emptyFile() {
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-0", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-5", size: 0) == .whole)
    }

    @Test("absent, other units, bad syntax and several ranges: the whole file", arguments: [
        nil, "items=0-1", "bytes", "bytes=", "bytes=a-b", "bytes=5-1", "bytes=1-2-3", "bytes=--1", "bytes=+1-2", "bytes= - ",
        "bytes=0-1,5-6", "bytes=0-1,200-300,-5",
    ] as [String?])
    func whole(header: String?) {
        #expect(ByteRange(header: header, size: 100) == .whole, "\(String(describing: header))")
    }
}

@Suite("Validators (RFC 9110 conditional requests)")
struct ValidatorsTests {
    let validators = Validators(etag: "\"abc\"", lastModified: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("If-None-Match matches weakly, lists and *; it wins over If-Modified-Since")
    func ifNoneMatch() {
        for header in ["\"abc\"", "W/\"abc\"", "\"x\", \"abc\"", "*"] {
            #expect(validators.evaluate(ifNoneMatch: header, ifModifiedSince: nil, ifRange: nil) == .notModified, "\(header)")
        }
        #expect(validators.evaluate(ifNoneMatch: "\"other\"", ifModifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT", ifRange: nil)
            == .send(honourRange: true))
    }

    @Test("If-Modified-Since: 304 at or after the modification, 200 before, ignored when malformed")
    func ifModifiedSince() {
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT", ifRange: nil) == .notModified)
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: "Mon, 07 Nov 1994 00:00:00 GMT", ifRange: nil) == .notModified)
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: "Sun, 06 Nov 1994 08:49:36 GMT", ifRange: nil) == .send(honourRange: true))
        // The obsolete forms are dates too (RFC 9110 §5.6.7: recipients must accept them).
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: "Sunday, 06-Nov-94 08:49:37 GMT", ifRange: nil) == .notModified)
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: "Sun Nov  6 08:49:37 1994", ifRange: nil) == .notModified)
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: "Sun Nov  6 08:49:36 1994", ifRange: nil) == .send(honourRange: true))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: "Sunday, 06-Nov-94 8:49:37", ifRange: nil) == .send(honourRange: true))
    }

    @Test("If-Range: the range only for the same strong tag or exact date, and a date only when it is strong (a second before now)")
    func ifRange() {
        let modified: Int64 = 784_111_777
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "Sun, 06 Nov 1994 08:49:37 GMT", now: modified) == .send(honourRange: false))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "Sun, 06 Nov 1994 08:49:37 GMT", now: modified + 1) == .send(honourRange: false))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "Sun, 06 Nov 1994 08:49:37 GMT", now: modified + 2) == .send(honourRange: true))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "\"abc\"") == .send(honourRange: true))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "W/\"abc\"") == .send(honourRange: false))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "\"old\"") == .send(honourRange: false))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "Sun, 06 Nov 1994 08:49:37 GMT") == .send(honourRange: true))
        #expect(validators.evaluate(ifNoneMatch: nil, ifModifiedSince: nil, ifRange: "Sun, 06 Nov 1994 08:49:38 GMT") == .send(honourRange: false))
    }

    @Test("HTTP dates round-trip")
    func dates() {
        #expect(HTTPDate.string(.init(timeIntervalSince1970: 784_111_777.9)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.seconds("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.seconds("Sun, 6 Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.seconds("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.seconds("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.seconds("Thursday, 01-Jan-26 00:00:00 GMT") == 1_767_225_600)
        #expect(HTTPDate.string(.init(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.string(.init(timeIntervalSince1970: 1_795_614_309)) == "Wed, 25 Nov 2026 13:45:09 GMT")
        // Every field's padding, over a spread of instants: what is written reads back.
        for seconds in stride(from: Int64(0), to: 4_102_444_800, by: 86_399 * 37 + 3_601) {
            #expect(HTTPDate.seconds(HTTPDate.string(.init(timeIntervalSince1970: Double(seconds)))) == seconds)
        }
    }
}
