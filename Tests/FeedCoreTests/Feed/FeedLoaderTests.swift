import Foundation
import Testing
import FeedTestSupport
@testable import FeedCore

@Suite struct FeedLoaderTests {
    private func problem(_ text: String, format: FeedFormat? = nil) -> FeedProblem? {
        do {
            _ = try FeedLoader.load(bytes: Array(text.utf8), source: "f.json", format: format)
            return nil
        } catch {
            guard case .invalid(let problem) = error else { return nil }
            return problem
        }
    }

    @Test(arguments: [
        (FormatFixture.liver, 5, 0, 0, ["videos[4].id"]),
        (.liverComments, 0, 5, 0, ["comments[3].id"]),
        (.feedsApp, 4, 0, 4, []),
        (.pexels, 4, 0, 0, []),
    ])
    func everyFormatFixtureLoads(fixture: FormatFixture, videos: Int, comments: Int, posts: Int, warnings: [String]) throws {
        // Given the project's own file of one format, when it is loaded and validated by path
        let feed = try FeedLoader.load(path: fixture.path)
        let problems = try FeedLoader.validate(path: fixture.path)
        // Then the format is detected, every entry is read, and the only problems are its warnings
        #expect(feed.source == fixture.path)
        #expect(feed.format == fixture.format)
        #expect(feed.videos.count == videos)
        #expect(feed.comments.count == comments)
        #expect(feed.posts.count == posts)
        #expect(feed.warnings.map(\.path) == warnings)
        #expect(feed.warnings.allSatisfy { $0.severity == .warning })
        #expect(problems == feed.warnings)
        // and forcing the format it was detected as changes nothing
        #expect(try FeedLoader.load(path: fixture.path, format: fixture.format) == feed)
    }

    @Test func formatFixturesAreOneFilePerFormat() throws {
        let folder = RepositoryFiles.fixture("formats")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.sorted() == FormatFixture.allCases.map(\.rawValue).sorted())
        #expect(FormatFixture.allCases.map(\.format).sorted { $0.rawValue < $1.rawValue }
            == FeedFormat.allCases.sorted { $0.rawValue < $1.rawValue })
    }

    @Test(arguments: FormatFixture.allCases)
    func aFixtureReadsTheSameFromItsPathAsFromItsBytes(fixture: FormatFixture) throws {
        let fromPath = try FeedLoader.load(path: fixture.path)
        let fromBytes = try FeedLoader.load(bytes: try fixture.bytes(), source: fixture.path)
        let fromBytesInItsFolder = try FeedLoader.load(bytes: try fixture.bytes(), source: fixture.path,
                                                       folder: URL(fileURLWithPath: fixture.path).deletingLastPathComponent().path)
        // Bytes alone resolve paths from the current folder; a file from its own.
        #expect(fromBytes.folder == FileManager.default.currentDirectoryPath)
        #expect(fromPath == fromBytesInItsFolder)
    }

    @Test(.peerDataIsPresent, arguments: [
        ("mohsin-06146__LiveRApp__Videos.json", FeedFormat.liver, 5, 0),
        ("Ruchit-Shah__LiveStreamAssignment__videos.json", .liver, 5, 0),
        ("mohsin-06146__LiveRApp__Comments.json", .liverComments, 0, 15),
        ("Ruchit-Shah__LiveStreamAssignment__comments.json", .liverComments, 0, 15),
        ("ArshwinDenuevLal__FeedsApp__FeedsJSON.json", .feedsApp, 26, 0),
    ])
    func everyPeerFileLoads(name: String, format: FeedFormat, videos: Int, comments: Int) throws {
        let path = PeerData.file(name).path
        let feed = try FeedLoader.load(path: path)
        #expect(feed.source == path)
        #expect(feed.format == format)
        #expect(feed.videos.count == videos)
        #expect(feed.comments.count == comments)
        #expect(feed.warnings.isEmpty)
        #expect(try FeedLoader.validate(path: path).isEmpty)
    }

    @Test(.peerDataIsPresent) func peerDataFolderHoldsOnlyTheFilesAbove() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: PeerData.folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count == 5)
        for name in names {
            #expect(throws: Never.self) { try FeedLoader.load(path: PeerData.file(name).path) }
        }
    }

    @Test(.peerDataIsPresent) func peerLiverFilesMatchTheFixtures() throws {
        let peer = try FeedLoader.load(path: PeerData.file("mohsin-06146__LiveRApp__Videos.json").path)
        let fixture = try FeedLoader.load(bytes: try TestFiles.fixture("videos.json"), source: "x")
        #expect(peer.videos == fixture.videos)
    }

    @Test func demoIsTheFixtureVideosAndComments() throws {
        let demo = FeedLoader.demo()
        #expect(demo.source == "<demo>")
        #expect(demo.videos == (try FeedLoader.load(bytes: try TestFiles.fixture("videos.json"), source: "x")).videos)
        #expect(demo.comments.count == 15)
        #expect(demo.videos.map(\.id.description) == ["1235", "1450", "1783", "1739", "1515"])
    }

    @Test func loadsFromAPathAndReportsItAsGiven() throws {
        let folder = try ScratchFolder()
        let file = folder.url("bom.json")
        // A byte-order mark before the root is accepted and not counted in columns.
        let text = #"{"videos": [{"id": 1, "username": "u", "video": 5}]}"#
        try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: file)
        let five = try #require(TestFiles.lineColumn(of: "5", in: text))
        let problems = try FeedLoader.validate(path: file.path)
        #expect(problems.map(\.description) == ["\(file.path):1:\(five.column): videos[0].video: expected an absolute URL (https://…, file:///…) or a file path (absolute, or relative to the feed's folder) as a string, found 5"])
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"comments": []}"#.utf8)).write(to: file)
        #expect(try FeedLoader.load(path: file.path).format == .liverComments)
    }

    @Test func mediaReferencesResolveAgainstTheFeedFilesFolder() throws {
        // Given a feed in a subfolder naming its clips every way a feed can.
        let scratch = try ScratchFolder()
        let folder = scratch.url
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("feeds"), withIntermediateDirectories: true)
        let text = #"""
        {"videos": [
          {"id": 1, "username": "u", "video": "clips/a.mp4", "thumbnail": "../thumbs/a.png"},
          {"id": 2, "username": "u", "video": "/srv/clips/b.mp4"},
          {"id": 3, "username": "u", "video": "file:///srv/clips/c%201.mp4"},
          {"id": 4, "username": "u", "video": "https://x.test/d.mp4"}
        ]}
        """#
        let file = folder.appendingPathComponent("feeds/feed.json")
        try Data(text.utf8).write(to: file)

        // When it is loaded by a path that wanders through `..`.
        let feed = try FeedLoader.load(path: folder.path + "/feeds/../feeds/feed.json")

        // Then the references are kept as written and resolve from the feed's own folder.
        let base = folder.standardizedFileURL.path
        #expect(feed.folder == base + "/feeds")
        #expect(feed.videos.map { $0.videoReference?.text } == ["clips/a.mp4", "/srv/clips/b.mp4", "file:///srv/clips/c%201.mp4", "https://x.test/d.mp4"])
        #expect(feed.videos.map { $0.videoReference.map(feed.location(of:)) } == [
            .file(path: base + "/feeds/clips/a.mp4"), .file(path: "/srv/clips/b.mp4"), .file(path: "/srv/clips/c 1.mp4"), .url("https://x.test/d.mp4"),
        ])
        #expect(feed.videos[0].thumbnailReference.map(feed.location(of:)) == .file(path: base + "/thumbs/a.png"))
        #expect(feed.warnings.isEmpty)
    }

    @Test func standardInputTheDemoAndBytesResolveAgainstTheCurrentFolder() throws {
        let current = FileManager.default.currentDirectoryPath
        let bytes = Array(#"{"videos": [{"id": 1, "username": "u", "video": "clips/a.mp4"}]}"#.utf8)

        let feed = try FeedLoader.load(bytes: bytes, source: "<stdin>")
        let placed = try FeedLoader.load(bytes: bytes, source: "x.json", folder: "/srv/feeds")

        #expect(feed.folder == current)
        #expect(FeedFile.folder(of: "-") == current)
        #expect(FeedFile.folder(of: "feeds/x.json") == MediaReference.absolute("feeds", in: current))
        #expect(FeedLoader.demo().folder == current)
        #expect(feed.location(of: .path("clips/a.mp4")) == .file(path: MediaReference.absolute("clips/a.mp4", in: current)))
        #expect(placed.location(of: .path("clips/a.mp4")) == .file(path: "/srv/feeds/clips/a.mp4"))
    }

    @Test func videoByIDMatchesTheParsedIDOrTheText() throws {
        let bytes = Array(#"{"videos": [{"id": 42, "username": "u", "video": "a.mp4"}, {"id": "0042", "username": "v", "video": "b.mp4"}]}"#.utf8)
        let feed = try FeedLoader.load(bytes: bytes, source: "x.json")

        #expect(feed.video(id: "42")?.username == "u")
        #expect(feed.video(id: "0042")?.username == "v")
        #expect(feed.video(id: "7") == nil)
    }

    @Test func missingAndUnreadableFiles() throws {
        let folder = try ScratchFolder()
        let missing = folder.path("nope.json")
        #expect(throws: FeedError.missingFile(path: missing)) { try FeedLoader.load(path: missing) }
        #expect(throws: FeedError.missingFile(path: missing)) { try FeedLoader.validate(path: missing) }
        #expect(FeedError.missingFile(path: missing).kind == .missingInput)
        do {
            _ = try FeedLoader.load(path: folder.path)
            Issue.record("a directory loaded")
        } catch {
            #expect(error == .unreadable(path: folder.path, reason: "is a directory"))
            #expect(error.kind == .io)
        }
    }

    @Test func notJSONPointsAtTheBadByte() throws {
        let text = "{\n  \"videos\": [\n    {\"id\": 1,, }\n  ]\n}"
        let found = try #require(problem(text))
        let comma = try #require(TestFiles.lineColumn(of: ",,", in: text))
        #expect(found.description == "f.json:3:\(comma.column + 1): unexpected ',': expected a member name in double quotes")
        #expect(found.path == "")
    }

    @Test(arguments: ["{\"items\": []}", "42", "\"videos\"", "{}"])
    func unknownRootIsAnError(text: String) throws {
        let found = try #require(problem(text))
        #expect(found.line == 1 && found.column == 1 && found.path == "")
        #expect(found.message.hasPrefix("unknown feed format"))
    }

    @Test func detectsTheFormatFromTheRoot() throws {
        let cases: [(String, FeedFormat?)] = [
            (#"{"videos": []}"#, .liver), (#"{"comments": []}"#, .liverComments), ("[]", .feedsApp),
            (#"{"page": 1, "videos": []}"#, .pexels), (#"{"videos": [{"video_files": []}]}"#, .pexels), (#"{"x": 1}"#, nil),
        ]
        for (text, format) in cases {
            #expect(FeedLoader.detectFormat(try JSONParser.parse(Array(text.utf8))) == format)
        }
    }

    @Test func forcedFormatThatDoesNotFitSaysWhy() throws {
        let comments = try #require(problem(#"{"videos": []}"#, format: .liverComments))
        #expect(comments.description == #"f.json:1:1: comments: missing required field "comments""#)
        let posts = try #require(problem(#"{"videos": []}"#, format: .feedsApp))
        #expect(posts.message == "expected an array of posts, found an object")
        let liver = try #require(problem("[]", format: .liver))
        #expect(liver.message == "expected an object, found an array")
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let text = #"{"videos": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        let found = try #require(problem(text))
        #expect(found.message == "nesting deeper than 512 levels")
        // The root object is level 1, so the 512th '[' (column 12 + 511) is one too many.
        #expect(found.column == 12 + 511)
    }

    @Test func hugeIntegerSaysItIsBeyondInt64() throws {
        let found = try #require(problem(#"{"videos": [{"id": 123456789012345678901, "username": "u", "video": "https://x.test/v"}]}"#))
        #expect(found.message == "number 123456789012345678901 is beyond the 64-bit integer range")
        #expect(found.column == 20)
    }
}
