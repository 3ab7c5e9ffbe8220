import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore

/// Hostile values in well-formed JSON: huge strings, URLs with risky schemes, ids that are
/// paths. Each loads correctly, loads with a warning, or fails with one clear error.
@Suite("Hostile feed values", .offThePool)
struct HostileFeedTests {
    static func video(_ fields: String) -> [UInt8] {
        Array(#"{"videos":[{"id":1,"username":"u","#.utf8) + Array(fields.utf8) + Array("}]}".utf8)
    }

    static func problems(_ bytes: [UInt8]) -> [FeedProblem] {
        FeedLoader.validate(bytes: bytes, source: "hostile.json")
    }

    // MARK: - A 200 MB string

    /// `{"videos":[{… "<field>":"#tag xxxx…"}]}` with a `size`-byte string.
    static func bigString(field: String, size: Int) -> [UInt8] {
        let head = Array(#"{"videos":[{"id":1,"username":"u","video":"https://e.com/1.mp4",""#.utf8)
            + Array(field.utf8) + Array(##"":"#tag "##.utf8)
        let tail = Array(#""}]}"#.utf8)
        return filled(head: head, size: size - 5, tail: tail)
    }

    /// `head`, `size` bytes of `x`, `tail`, built with block copies (a per-byte append of
    /// 200 MB takes minutes in a debug build).
    static func filled(head: [UInt8], size: Int, tail: [UInt8]) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: head.count + size + tail.count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<head.count]).initialize(from: head)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[(head.count + size)...]).initialize(from: tail)
        }
        return bytes
    }

    @Test func a200MBDescriptionLoadsWhole() async throws {
        let size = 200 << 20
        let feed = try await offThePool {
            try FeedLoader.load(bytes: Self.bigString(field: "description", size: size), source: "big.json")
        }

        let video = try #require(feed.videos.first)
        #expect(video.description.utf8.count == size)
        #expect(video.hashtags == ["tag"])
    }

    @Test func a200MBStringWhereANumberBelongsGivesAShortMessage() async throws {
        let problems = await offThePool { Self.problems(Self.bigString(field: "likes", size: 200 << 20)) }

        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.path == "videos[0].likes")
        #expect(problem.message == "expected an integer, found \"#tag \(String(repeating: "x", count: 35))…\"")
    }

    @Test func aLongEscapedStringIsPreviewedWithoutCuttingAnEscape() throws {
        // 300 emoji as surrogate-pair escapes (12 bytes each): beyond the preview's byte budget.
        let emoji = String(repeating: #"\ud83d\ude00"#, count: 300)

        let problem = try #require(Self.problems(Self.video(#""video":"https://e.com/1","likes":"\#(emoji)""#)).first)

        #expect(problem.message == "expected an integer, found \"\(String(repeating: "😀", count: 40))…\"")
    }

    @Test func terminalControlsInAQuotedValueAreEscaped() throws {
        // ESC ] 0 ; … BEL would retitle a terminal; U+009B is a one-byte CSI.
        let bytes = Self.video(#""video":"https://e.com/1","likes":"\u001b]0;owned\u0007 \u009b2J \u007f""#)

        let problem = try #require(Self.problems(bytes).first)

        #expect(problem.message == #"expected an integer, found "\u001b]0;owned\u0007 \u009b2J \u007f""#)
        #expect(!problem.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    // MARK: - URL schemes

    @Test(arguments: ["data:video/mp4;base64,AAAA", "ftp://e.com/1.mp4", "rtmp://e.com/live"])
    func otherSchemesLoadWithAWarning(url: String) throws {
        let bytes = Self.video(#""video":"\#(url)""#)

        let feed = try FeedLoader.load(bytes: bytes, source: "hostile.json")

        #expect(feed.videos.first?.video?.absoluteString == url)
        let warning = try #require(feed.warnings.first)
        #expect(feed.warnings.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.path == "videos[0].video")
        let scheme = String(url.prefix { $0 != ":" }).lowercased()
        #expect(warning.message == "\(scheme): URL is not http(s) or file: only trust it in a feed you made")
        #expect(Self.problems(bytes) == feed.warnings)
    }

    @Test(arguments: ["file:///etc/passwd", "FILE:///home/me/clip.mp4"])
    func fileURLsLoadQuietly(url: String) throws {
        // Local feeds name local clips this way (`feed roll export`); opening is gated elsewhere.
        let feed = try FeedLoader.load(bytes: Self.video(#""video":"\#(url)""#), source: "local.json")

        #expect(feed.videos.first?.video?.absoluteString == url)
        #expect(feed.warnings.isEmpty)
    }

    @Test(arguments: ["video", "thumbnail", "profilePicURL"], ["javascript:alert(1)", "JavaScript:void(0)", "vbscript:msgbox"])
    func scriptURLsAreErrors(field: String, url: String) throws {
        let bytes = Self.video(#""video":"https://e.com/1.mp4","\#(field)":"\#(url)""#.replacingOccurrences(
            of: #""video":"https://e.com/1.mp4","video""#, with: #""video""#))

        let problems = Self.problems(bytes)

        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.severity == .error)
        #expect(problem.path == "videos[0].\(field)")
        let scheme = String(url.prefix { $0 != ":" }).lowercased()
        #expect(problem.message == "expected an http(s) URL, found a \(scheme): URL (script, not media)")
        #expect(throws: FeedError.invalid(problem)) { try FeedLoader.load(bytes: bytes, source: "hostile.json") }
    }

    @Test func httpAndHTTPSURLsGiveNoWarning() throws {
        let feed = try FeedLoader.load(bytes: Self.video(#""video":"HTTPS://e.com/1.mp4","thumbnail":"http://e.com/1.png""#), source: "ok.json")
        #expect(feed.warnings.isEmpty)
    }

    // MARK: - Ids that are paths

    @Test(arguments: [
        (#""../../etc/passwd""#, "contains a path separator"),
        (#""..""#, "is a relative path"),
        (#"".""#, "is a relative path"),
        (#""a\\b""#, "contains a path separator"),
        (#""x\u0000y""#, "contains a control character"),
        (#""line\nbreak""#, "contains a control character"),
        (#""""#, "is empty"),
    ])
    func idsThatCannotNameAFileAreErrors(id: String, reason: String) throws {
        let bytes = Array(#"{"videos":[{"id":"#.utf8) + Array(id.utf8) + Array(#","username":"u","video":"https://e.com/1"}]}"#.utf8)

        let problems = Self.problems(bytes)

        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.path == "videos[0].id")
        #expect(problem.message.hasSuffix("\(reason): ids name files in the roll and in stack output"))
        #expect(!problem.description.contains("\n"))
    }

    @Test func pathLikeIdsAreCheckedInEveryFormat() throws {
        let comments = Array(#"{"comments":[{"id":"../c","username":"u","comment":"hi"}]}"#.utf8)
        let posts = Array(#"[{"id":"P1","media":[{"id":"../../m","type":"video"}]}]"#.utf8)
        #expect(Self.problems(comments).map(\.path) == ["comments[0].id"])
        #expect(Self.problems(posts).map(\.path) == ["[0].media[0].id"])
    }

    @Test(arguments: ["DJDphyX", "a.b-c_d", "..hidden", "ünï"])
    func ordinaryStringIdsLoad(id: String) throws {
        let bytes = Array(#"{"videos":[{"id":"\#(id)","username":"u","video":"https://e.com/1"}]}"#.utf8)
        let feed = try FeedLoader.load(bytes: bytes, source: "ok.json")
        #expect(feed.videos.first?.id == .string(id))
    }
}
