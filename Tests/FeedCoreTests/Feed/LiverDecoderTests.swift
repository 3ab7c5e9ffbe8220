import FeedTestSupport
import Foundation
import Testing
@testable import FeedCore

@Suite struct LiverDecoderTests {
    /// `Fixtures/videos.json` with the `occurrence`-th (1-based) match of `old` replaced by `new`.
    private func editedFixture(_ old: String, _ new: String, occurrence: Int = 1) throws -> String {
        let text = try TestFiles.fixtureText("videos.json")
        var searchStart = text.startIndex
        var found: Range<String.Index>?
        for _ in 0..<occurrence {
            found = text.range(of: old, range: searchStart..<text.endIndex)
            searchStart = try #require(found).upperBound
        }
        return text.replacingCharacters(in: try #require(found), with: new)
    }

    private func firstError(_ text: String, source: String = "videos.json") -> FeedError? {
        do {
            _ = try FeedLoader.load(bytes: Array(text.utf8), source: source)
            return nil
        } catch {
            return error
        }
    }

    @Test func fixtureVideosLoadWithTrailingCommas() throws {
        let feed = try FeedLoader.load(bytes: try TestFiles.fixture("videos.json"), source: "videos.json")
        #expect(feed.format == .liver)
        #expect(feed.videos.map(\.id) == [.int(1235), .int(1450), .int(1783), .int(1739), .int(1515)])
        let first = feed.videos[0]
        #expect(first.userID == .int(83048))
        #expect(first.username == "amanda")
        #expect(first.topic == "tasting")
        #expect(first.viewers == 11 && first.likes == 3)
        #expect(first.video?.absoluteString == "https://d2uj5sc6syma2y.cloudfront.net/video/66ac8ea93b90c.mp4")
        #expect(first.thumbnail?.absoluteString == "https://d2uj5sc6syma2y.cloudfront.net/thum/66ac8eabac954.png")
        #expect(first.hashtags.prefix(3) == ["tacos", "food", "foodie"])
        #expect(first.duration == nil)
        #expect(feed.videos[4].likes == 545 && feed.videos[4].viewers == 11242)
        #expect(feed.videos[4].profilePicURL?.host == "firebasestorage.googleapis.com")
        #expect(feed.warnings.isEmpty)
    }

    @Test func fixtureCommentsLoad() throws {
        let feed = try FeedLoader.load(bytes: try TestFiles.fixture("comments.json"), source: "comments.json")
        #expect(feed.format == .liverComments)
        #expect(feed.comments.count == 15)
        #expect(feed.comments.map(\.id) == ((1...13) + [49, 50]).map { FeedID.int(Int64($0)) })
        #expect(feed.comments[0].username == "jnaisbitt0")
        #expect(feed.comments[0].comment == "consequat metus sapien ut nunc vestibulum ante ipsum primis in")
        #expect(feed.comments[0].picURL?.host == "fastly.picsum.photos")
        #expect(feed.videos.isEmpty)
    }

    @Test func ownVideosFixtureKeepsIdsAsWritten() throws {
        // Given the project's LIVEr fixture: a BOM, trailing commas, integer and string ids
        let bytes = try FormatFixture.liver.bytes()
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]), "the fixture keeps its byte-order mark")
        // When loaded
        let feed = try FeedLoader.load(bytes: bytes, source: "liver-videos.json")
        // Then integers stay integers, "0042" stays text, and "101" is read as the number it spells
        #expect(feed.format == .liver)
        #expect(feed.videos.map(\.id) == [.int(101), .string("clip-7"), .int(102), .string("0042"), .int(101)])
        #expect(feed.videos[1].userID == .string("u-42"))
        #expect(feed.comments.isEmpty)
    }

    @Test func ownVideosFixtureReadsEveryField() throws {
        let first = try #require(try FeedLoader.load(path: FormatFixture.liver.path).videos.first)
        #expect(first == Video(
            id: .int(101), userID: .int(9001), username: "amélie",
            profilePicURL: URL(string: "https://cdn.example.test/u/9001.png?size=96&v=2"),
            description: "Street tacos at dawn 🌮 #tacos #food #café", topic: "tasting", viewers: 1200, likes: 87,
            video: URL(string: "https://cdn.example.test/v/101.mp4"), thumbnail: URL(string: "https://cdn.example.test/t/101.jpg"),
            duration: 12.5, width: 720, height: 1280))
    }

    @Test func ownVideosFixtureOptionalFieldsMissingNullOrEmptyAreAbsent() throws {
        let videos = try FeedLoader.load(path: FormatFixture.liver.path).videos
        // null topic, thumbnail and duration, no counts given as 0, an unknown member ignored
        let nulls = videos[1]
        #expect(nulls.topic == nil && nulls.thumbnail == nil && nulls.duration == nil)
        #expect(nulls.profilePicURL == nil && nulls.width == nil && nulls.height == nil)
        #expect(nulls.video?.absoluteString == "https://cdn.example.test/v/clip-7.m3u8")
        // only the required fields
        #expect(videos[2] == Video(id: .int(102), username: "min", video: URL(string: "https://cdn.example.test/v/102.mp4")))
        // an empty profilePicURL and a null width
        #expect(videos[3].profilePicURL == nil && videos[3].width == nil)
        #expect((videos[3].viewers, videos[3].likes) == (0, 0))
    }

    @Test func ownVideosFixtureHashtagsAndUnicode() throws {
        let videos = try FeedLoader.load(path: FormatFixture.liver.path).videos
        #expect(videos.map(\.hashtags) == [["tacos", "food", "café"], ["日本", "2024"], [], [], []])
        // \u escapes, \n and \" in text, a surrogate pair
        #expect(videos[1].username == "山田")
        #expect(videos[1].description == "Line one\nline \"two\" #日本 #2024")
        #expect(videos[4].description == "the first video's id again, as a string 🎉")
    }

    @Test func ownVideosFixtureRepeatedIdIsOneLocatedWarning() throws {
        let text = try FormatFixture.liver.text()
        let feed = try FeedLoader.load(path: FormatFixture.liver.path)
        let at = try #require(TestFiles.lineColumn(of: #""id": "101""#, in: text))
        #expect(feed.videos.count == 5)
        #expect(feed.warnings.map(\.description)
            == ["\(FormatFixture.liver.path):\(at.line):\(at.column + 6): warning: videos[4].id: duplicate id \"101\" (first used by videos[0])"])
    }

    @Test("a key twice in one object is an error at the second: jq would read the last value, feed the first")
    func duplicateKeyIsAnError() throws {
        let text = "{\"videos\":[{\"id\":1,\"username\":\"a\",\"video\":\"a.mp4\",\"likes\":1,\n\"likes\":\"many\"}]}"
        let problems = FeedLoader.validate(bytes: Array(text.utf8), source: "v.json")
        #expect(problems.map(\.description)
            == [#"v.json:2:1: videos[0].likes: duplicate key "likes" in this object: readers disagree on which value counts (jq takes the last)"#])
        #expect(throws: FeedError.self) { try FeedLoader.load(bytes: Array(text.utf8), source: "v.json") }
        // Escaped and plain spellings of one name are the same key.
        let escaped = #"{"videos":[{"id":1,"username":"a","video":"a.mp4","\u0069d":2}]}"#
        #expect(FeedLoader.validate(bytes: Array(escaped.utf8), source: "e.json").map(\.message).first?.hasPrefix(#"duplicate key "id""#) == true)
    }

    @Test func ownVideosFixtureByteOrderMarkIsNotAColumn() throws {
        // Read as comments, the fixture's root object (just after the BOM) lacks "comments"
        let problems = FeedLoader.validate(bytes: try FormatFixture.liver.bytes(), source: "v.json", format: .liverComments)
        #expect(problems.first?.description == #"v.json:1:1: comments: missing required field "comments""#)
    }

    @Test func ownCommentsFixtureLoads() throws {
        // Given the project's comments fixture: string and integer ids, a repeat, odd text
        let text = try FormatFixture.liverComments.text()
        let feed = try FeedLoader.load(path: FormatFixture.liverComments.path)
        // Then every comment is read; picURL null, empty or missing is absent
        #expect(feed.format == .liverComments)
        #expect(feed.videos.isEmpty)
        #expect(feed.comments.map(\.id) == [.int(1), .string("c-2"), .int(3), .int(1), .int(4)])
        #expect(feed.comments.map(\.username) == ["ann", "björn", "cat", "dup", "👍🏽"])
        #expect(feed.comments.map(\.picURL) == [URL(string: "https://pics.example.test/ann.png"), nil, nil, nil, nil])
        #expect(feed.comments.map(\.comment) == [
            "first! 🎉", "two\nlines, \"quoted\", café", "", "the first comment's id again", "👨‍👩‍👧 family emoji and a \t tab",
        ])
        // and the repeated id is one warning at the repeat
        let at = try #require(TestFiles.lineColumn(of: #""id": 1, "username": "dup""#, in: text))
        #expect(feed.warnings.map(\.description)
            == ["\(FormatFixture.liverComments.path):\(at.line):\(at.column + 6): warning: comments[3].id: duplicate id 1 (first used by comments[0])"])
    }

    @Test func wrongTypeNamesPathAndTheStartOfTheValue() throws {
        // Given the fixture with the 4th video's likes replaced by a string
        let text = try editedFixture(#""likes": 4,"#, #""likes": "many","#)
        let expected = try #require(TestFiles.lineColumn(of: #""many""#, in: text))
        // When loaded
        let error = try #require(firstError(text))
        // Then the one-line error points at the value
        #expect(error.description == "videos.json:\(expected.line):\(expected.column): videos[3].likes: expected an integer, found \"many\"")
        #expect(error.description == #"videos.json:46:16: videos[3].likes: expected an integer, found "many""#)
        #expect(error.kind == .invalidData)
    }

    @Test func missingRequiredFieldPointsAtTheObject() throws {
        let text = try editedFixture(#""username": "sonia","#, "")
        // The 3rd video's opening brace: the line before its "id": 1783.
        let id = try #require(TestFiles.lineColumn(of: #""id": 1783"#, in: text))
        guard case .invalid(let problem)? = firstError(text) else { Issue.record("expected .invalid"); return }
        #expect(problem.path == "videos[2].username")
        #expect(problem.message == #"missing required field "username""#)
        #expect(problem.line == id.line - 1)
        #expect(problem.column == 5)
    }

    @Test func negativeCountIsAnError() throws {
        let text = try editedFixture(#""viewers": 202,"#, #""viewers": -202,"#)
        let expected = try #require(TestFiles.lineColumn(of: "-202", in: text))
        guard case .invalid(let problem)? = firstError(text) else { Issue.record("expected .invalid"); return }
        #expect(problem.path == "videos[1].viewers")
        #expect(problem.message == "expected a non-negative count, found -202")
        #expect((problem.line, problem.column) == (expected.line, expected.column))
    }

    @Test(arguments: [
        ("://x", "whose scheme is not valid"), ("//cdn.test/v.mp4", "a URL without a scheme: put https: in front"),
        ("clips/a\u{1B}.mp4", "a path with a control character"), ("http://[x", "which is not a valid URL"),
    ])
    func malformedReferenceIsAnErrorSayingWhatIsAccepted(bad: String, why: String) throws {
        let json = bad.replacingOccurrences(of: "\u{1B}", with: "\\u001b")
        let text = try editedFixture(#""video": "https://d2uj5sc6syma2y.cloudfront.net/video/66edaf9fa7781.mp4""#, #""video": "\#(json)""#)
        let expected = try #require(TestFiles.lineColumn(of: "\"\(json)\"", in: text))
        guard case .invalid(let problem)? = firstError(text) else { Issue.record("expected .invalid"); return }
        #expect(problem.path == "videos[3].video")
        let accepted = "an absolute URL (https://…, file:///…) or a file path (absolute, or relative to the feed's folder)"
        #expect(problem.message.hasPrefix("expected \(accepted), found \""), "\(problem.message)")
        #expect(problem.message.hasSuffix(why), "\(problem.message)")
        #expect((problem.line, problem.column) == (expected.line, expected.column))
    }

    @Test(arguments: ["/srv/clips/a.mp4", "clips/a.mp4", "../common/my clip.mp4", "a.mp4", "file:///srv/a.mp4", "https://x.test/a.mp4"])
    func urlsAndPathsAreReferencesKeptAsWritten(reference: String) throws {
        let text = try editedFixture(#""video": "https://d2uj5sc6syma2y.cloudfront.net/video/66edaf9fa7781.mp4""#, #""video": "\#(reference)""#)

        let feed = try FeedLoader.load(bytes: Array(text.utf8), source: "v.json")

        #expect(feed.warnings.isEmpty)
        #expect(feed.videos[3].videoReference?.text == reference)
        #expect(feed.videos[3].video == (reference.contains(":") ? URL(string: reference) : nil), "a path is not a URL")
    }

    @Test func withoutPathsAPathIsAnErrorSayingURLsAreExpected() throws {
        let text = try editedFixture(#""thumbnail": "https://d2uj5sc6syma2y.cloudfront.net/thum/66d7ceb8e6cfc.png","#, #""thumbnail": "thumbs/1.png","#)

        let problems = FeedLoader.validate(bytes: Array(text.utf8), source: "v.json", allowingPaths: false)

        #expect(problems.map(\.path) == ["videos[4].thumbnail"])
        #expect(problems.first?.message == #"expected an absolute URL (https://…, file:///…), found the file path "thumbs/1.png""#)
        #expect(FeedLoader.validate(bytes: Array(text.utf8), source: "v.json").isEmpty, "paths are accepted by default")
        #expect(throws: FeedError.self) { try FeedLoader.load(bytes: Array(text.utf8), source: "v.json", allowingPaths: false) }
    }

    @Test func validateCollectsEveryProblemInDocumentOrder() throws {
        // Given three broken fields in three videos and one duplicate id
        var text = try editedFixture(#""likes": 3,"#, #""likes": true,"#)
        text = text.replacingOccurrences(of: #""topic": "grilling","#, with: #""topic": 5,"#)
        text = text.replacingOccurrences(of: #""thumbnail": "https://d2uj5sc6syma2y.cloudfront.net/thum/66d7ceb8e6cfc.png","#, with: #""thumbnail": "//thumbs.test/t.png","#)
        text = text.replacingOccurrences(of: #""id": 1450,"#, with: #""id": 1235,"#)
        // When validated
        let problems = FeedLoader.validate(bytes: Array(text.utf8), source: "v.json")
        // Then each is reported, in order, with its own position
        #expect(problems.map(\.path) == ["videos[0].likes", "videos[1].id", "videos[3].topic", "videos[4].thumbnail"])
        #expect(problems.map(\.severity) == [.error, .warning, .error, .error])
        #expect(problems[0].message == "expected an integer, found true")
        #expect(problems[1].message == "duplicate id 1235 (first used by videos[0])")
        #expect(problems[2].message == "expected a string, found 5")
        let topic = try #require(TestFiles.lineColumn(of: #""topic": 5"#, in: text))
        #expect((problems[2].line, problems[2].column) == (topic.line, topic.column + 9))
        // load() stops at the first error
        #expect(firstError(text, source: "v.json") == .invalid(problems[0]))
    }

    @Test func duplicateIDsAreWarningsNotFailures() throws {
        let text = try editedFixture(#""id": 1515,"#, #""id": 1783,"#)
        let feed = try FeedLoader.load(bytes: Array(text.utf8), source: "dup.json")
        #expect(feed.videos.count == 5)
        #expect(feed.warnings.count == 1)
        let warning = try #require(feed.warnings.first)
        let second = try #require(TestFiles.lineColumn(of: "1783,", in: text, last: true))
        #expect(warning.severity == .warning)
        #expect(warning.description == "dup.json:\(second.line):\(second.column): warning: videos[4].id: duplicate id 1783 (first used by videos[2])")
    }

    @Test func optionalFieldsDefaultAndNullIsAbsent() throws {
        let text = #"{"videos": [{"id": 1, "username": "u", "video": "https://x.test/v.mp4", "topic": null, "duration": 12.5, "width": 720}]}"#
        let video = try #require(try FeedLoader.load(bytes: Array(text.utf8), source: "s.json").videos.first)
        #expect(video == Video(id: .int(1), username: "u", video: URL(string: "https://x.test/v.mp4"), duration: 12.5, width: 720))
    }

    @Test func nullRequiredFieldIsAWrongType() throws {
        let text = #"{"videos": [{"id": 1, "username": null, "video": "https://x.test/v.mp4"}]}"#
        let null = try #require(TestFiles.lineColumn(of: "null", in: text))
        guard case .invalid(let problem)? = firstError(text) else { Issue.record("expected .invalid"); return }
        #expect(problem.description == "videos.json:1:\(null.column): videos[0].username: expected a string, found null")
    }
}
