import Foundation
import Testing
@testable import FeedCore

@Suite struct DecodeContextTests {
    /// A context over `{"x": <value>}` collecting every problem, and the object ref of the root.
    private func context(_ value: String) throws -> (DecodeContext, ObjectRef) {
        let document = try JSONParser.parse(Array(#"{"x": \#(value)}"#.utf8))
        return (DecodeContext(document: document, stopAtFirstError: false), ObjectRef(node: 0, path: ItemPath(parent: "items", index: 2)))
    }

    @Test func pathsReadLikeJSONPaths() {
        #expect(ItemPath.root.child("videos") == "videos")
        #expect(ItemPath(parent: "videos", index: 3).child("likes") == "videos[3].likes")
        #expect(ItemPath(parent: "", index: 4).child("media") == "[4].media")
    }

    @Test(arguments: [
        ("\"https://x.test/a?b=1\"", true), ("\"file:///tmp/v.mp4\"", true), ("\"x-app+v1.2:thing\"", true),
        ("\"/relative/v.mp4\"", false), ("\"www.x.test/v.mp4\"", false), ("\"1http://x\"", false), ("\"\"", true),
    ])
    func urlsNeedAScheme(value: String, valid: Bool) throws {
        var (context, object) = try context(value)
        _ = try context.url(object, "x")
        #expect(context.hasErrors == !valid)
        if !valid { #expect(context.problems(source: "s").first?.path == "items[2].x") }
    }

    @Test func typedReadsReportWhatTheyFound() throws {
        var (context, object) = try context("[1]")
        #expect(try context.bool(object, "x") == nil)
        #expect(try context.double(object, "x") == nil)
        #expect(try context.id(object, "x") == nil)
        #expect(try context.date(object, "x") == nil)
        #expect(context.problems(source: "s").map(\.message) == [
            "expected true or false, found an array", "expected a number, found an array",
            "expected an id (integer or string), found an array", "expected a string, found an array",
        ])
    }

    @Test func numbersBeyondDoubleAreRejected() throws {
        var (context, object) = try context("-1e400")
        #expect(try context.double(object, "x") == nil)
        #expect(context.problems(source: "s").first?.message == "number -1e400 is beyond the range of a double")
        var (small, smallObject) = try self.context("1e-400")
        #expect(try small.double(smallObject, "x") == 0)
    }

    @Test func datesAreISO8601() throws {
        var (good, goodObject) = try context("\"2025-04-21T21:54:04Z\"")
        #expect(try good.date(goodObject, "x") == Date(timeIntervalSince1970: 1_745_272_444))
        var (bad, badObject) = try context("\"yesterday\"")
        #expect(try bad.date(badObject, "x") == nil)
        #expect(bad.problems(source: "s").first?.message == #"expected an ISO 8601 date, found "yesterday""#)
    }

    @Test func stopsAtTheFirstErrorWhenAsked() throws {
        let document = try JSONParser.parse(Array(#"{"a": "1", "b": "2"}"#.utf8))
        var context = DecodeContext(document: document, stopAtFirstError: true)
        let object = ObjectRef(node: 0, path: .root)
        #expect(throws: StopDecoding.self) { _ = try context.int(object, "a") }
        #expect(context.pending.count == 1)
    }
}
