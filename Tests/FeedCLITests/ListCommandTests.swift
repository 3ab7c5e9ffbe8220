import FeedCore
import Foundation
import Testing
import FeedTestSupport

@Suite("feed list")
struct ListCommandTests {
    @Test("piped, the table shows the five demo videos with every description whole")
    func pipedTableIsNeverCut() async throws {
        let run = try await FeedProcess.run(["list"], environment: ["COLUMNS": "60"])
        let descriptions = try await FeedProcess.run(["list", "--json"]).objects().map { ($0["description"] as? String ?? "") }

        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.lines.count == 6, "header + 5 rows")
        #expect(run.lines.first?.hasPrefix("ID") == true)
        let firstCells = run.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(firstCells == Fixture.videoIDs.map(String.init))
        for (row, description) in zip(run.lines.dropFirst(), descriptions) {
            #expect(row.hasSuffix(description.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(row)")
        }
        #expect(run.lines.contains { $0.count > 100 }, "some rows are longer than any terminal here, whatever $COLUMNS says")
    }

    @Test("in a terminal, only the descriptions are cut to its width; counts are right-aligned")
    func terminalTableCutsDescriptionsOnly() async throws {
        let run = try await FeedProcess.runInTerminal(["list"], columns: 60)

        #expect(run.status == 0)
        #expect(run.lines.count == 6, "\(run.stdout)")
        #expect(run.lines.allSatisfy { $0.count <= 60 }, "\(run.stdout)")
        #expect(run.lines.contains { $0.hasSuffix("…") }, "the longest descriptions are cut")
        let firstCells = run.lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(firstCells == Fixture.videoIDs.map(String.init), "ids are whole")
        // LIKES is right-aligned: every row's likes value ends where the header does.
        let header = try #require(run.lines.first)
        let likesEnd = try #require(header.range(of: "LIKES")).upperBound.utf16Offset(in: header)
        for row in run.lines.dropFirst() {
            let prefix = String(row.utf16.prefix(likesEnd))!
            #expect(prefix.last?.isNumber == true, "row: \(row)")
        }
    }

    @Test func jsonIsOneArrayOfTheFiveVideos() async throws {
        let run = try await FeedProcess.run(["list", "--json"])

        #expect(run.status == 0)
        let videos = try run.objects()
        #expect(videos.map { $0["id"] as? Int } == Fixture.videoIDs)
        #expect(videos.first?["username"] as? String == "amanda")
        #expect((videos.first?["hashtags"] as? [String])?.contains("tacos") == true)
    }

    @Test func ndjsonIsOneObjectPerLine() async throws {
        let run = try await FeedProcess.run(["list", "--ndjson"])

        #expect(run.status == 0)
        #expect(run.lines.count == 5)
        let ids = try run.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["id"] as? Int
        }
        #expect(ids == Fixture.videoIDs)
    }

    @Test func sortLikesPutsTheMostLikedFirstAndReverseFlipsIt() async throws {
        let all = try await FeedProcess.run(["list", "--json"]).objects().compactMap { $0["likes"] as? Int }
        let sorted = try await FeedProcess.run(["list", "--json", "--sort", "likes"]).objects()
        let reversed = try await FeedProcess.run(["list", "--json", "--sort", "likes", "--reverse"]).objects()

        #expect(sorted.compactMap { $0["likes"] as? Int } == all.sorted(by: >))
        #expect(reversed.compactMap { $0["likes"] as? Int } == all.sorted())
    }

    @Test func sortIdIsAscending() async throws {
        let videos = try await FeedProcess.run(["list", "--json", "--sort", "id"]).objects()
        #expect(videos.compactMap { $0["id"] as? Int } == Fixture.videoIDs.sorted())
    }

    @Test(arguments: ["food", "#food", "FOOD"])
    func tagKeepsOnlyVideosWithThatHashtag(tag: String) async throws {
        let all = try await FeedProcess.run(["list", "--json"]).objects()
        let expected = all.filter { ($0["hashtags"] as? [String])?.contains { $0.lowercased() == "food" } == true }
            .compactMap { $0["id"] as? Int }

        let run = try await FeedProcess.run(["list", "--json", "--tag", tag])

        #expect(run.status == 0)
        #expect(!expected.isEmpty)
        #expect(try run.objects().compactMap { $0["id"] as? Int } == expected)
    }

    @Test func topicAndUserFilter() async throws {
        let byTopic = try await FeedProcess.run(["list", "--json", "--topic", "RESTOS"]).objects()
        let byUser = try await FeedProcess.run(["list", "--json", "--user", "sonia"]).objects()

        #expect(byTopic.compactMap { $0["username"] as? String } == ["eric"])
        #expect(byUser.compactMap { $0["topic"] as? String } == ["sharing"])
    }

    @Test func limitAndOffsetPage() async throws {
        let run = try await FeedProcess.run(["list", "--json", "--offset", "1", "--limit", "2"])

        #expect(try run.objects().compactMap { $0["id"] as? Int } == Array(Fixture.videoIDs[1..<3]))
    }

    @Test func feedsAppFixtureHasOneEntryPerPost() async throws {
        let run = try await FeedProcess.run(["list", "--feed", FormatFixture.feedsApp.path, "--json"])

        #expect(run.status == 0, "\(run.stderr)")
        let posts = try run.objects()
        #expect(posts.compactMap { $0["id"] as? String } == ["AlbImg1", "MixVid2", "NoMeta3", "Empty4"])
        #expect(posts[0]["video"] as? String == "https://i.imgur.example.test/img1a.jpeg", "a post of images plays its first image")
        #expect(posts[1]["video"] as? String == "https://i.imgur.example.test/vid2a.mp4")
        #expect(posts[3]["video"] is NSNull, "a post with no media has nothing to play")
    }

    @Test("each format fixture lists one row per entry, its warnings on stderr", arguments: [
        (FormatFixture.liver, ["101", "clip-7", "102", "0042", "101"], ["videos[4].id: duplicate id"]),
        (.liverComments, [], ["comments[3].id: duplicate id", "holds comments, not videos"]),
        (.feedsApp, ["AlbImg1", "MixVid2", "NoMeta3", "Empty4"], []),
        (.pexels, ["1001", "1002", "1003", "1004"], []),
    ])
    func eachFormatFixture(fixture: FormatFixture, ids: [String], notes: [String]) async throws {
        let json = try await FeedProcess.run(["list", "--feed", fixture.path, "--json"])
        let table = try await FeedProcess.run(["list", "--feed", fixture.path])

        #expect(json.status == 0 && table.status == 0, "\(json.stderr)")
        #expect(try json.objects().map { $0["id"].map { "\($0)" } ?? "" } == ids)
        let stderr = json.stderr.split(separator: "\n").map(String.init)
        #expect(stderr.count == notes.count, "\(json.stderr)")
        for (line, note) in zip(stderr, notes) {
            #expect(line.hasPrefix("feed: " + fixture.path) && line.contains(note), "\(line)")
        }
        // The table: a header and one row per entry led by its id, no control characters
        #expect(table.lines.count == 1 + ids.count, "\(table.stdout)")
        #expect(table.lines.dropFirst().map { String($0.prefix { $0 != " " }) } == ids)
        #expect(!table.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test(arguments: [("café", ["101"]), ("#日本", ["clip-7"]), ("2024", ["clip-7"]), ("FOOD", ["101"])])
    func tagMatchesUnicodeHashtags(tag: String, ids: [String]) async throws {
        let run = try await FeedProcess.run(["list", "--feed", FormatFixture.liver.path, "--json", "--tag", tag])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.objects().map { $0["id"].map { "\($0)" } ?? "" } == ids)
    }

    @Test(.peerDataIsPresent) func feedsAppPeerFileHasTwentySixEntries() async throws {
        let path = PeerData.file("ArshwinDenuevLal__FeedsApp__FeedsJSON.json").path
        let run = try await FeedProcess.run(["list", "--feed", path, "--json"])

        #expect(run.status == 0, "\(run.stderr)")
        let posts = try run.objects()
        #expect(posts.count == 26)
        #expect(posts.first?["id"] as? String == "DJDphyX")
    }

    @Test func commentsFeedGivesAnEmptyListAndAHint() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("comments.json", Fixture.comments)

        let run = try await FeedProcess.run(["list", "--feed", path, "--json"])

        #expect(run.status == 0)
        #expect(try run.objects().isEmpty)
        #expect(run.stderr.contains("holds comments, not videos"))
    }

    @Test func dashReadsTheFeedFromStandardInput() async throws {
        let two = Fixture.feed([(7, "ann", 1, "a #x"), (8, "bob", 2, "b")])
        let run = try await FeedProcess.run(["list", "--feed", "-", "--json"], stdin: Data(two.utf8))

        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.objects().compactMap { $0["id"] as? Int } == [7, 8])
    }

    @Test func feedPathEnvironmentIsTheDefaultFeed() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("videos.json", Fixture.feed([(42, "zed", 3, "z")]))

        let run = try await FeedProcess.run(["list", "--json"], environment: ["FEED_PATH": path])

        #expect(try run.objects().compactMap { $0["username"] as? String } == ["zed"])
    }

    @Test func negativeLimitIsAUsageError() async throws {
        let run = try await FeedProcess.run(["list", "--limit=-1"])

        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("feed: --limit must be 0 or more"))
    }
}

extension ListCommandTests {
    @Test("--limit 0 means all, as in roll list and jobs list")
    func limitZeroIsAll() async throws {
        let all = try await FeedProcess.run(["list", "--json"]).objects()
        let zero = try await FeedProcess.run(["list", "--json", "--limit", "0"]).objects()
        #expect(all.count == 5 && zero.count == all.count)
    }
}

@Suite("feed list: JSON bytes")
struct ListCommandJSONBytesTests {
    @Test func jsonAndNDJSONAreExactlyFeedCoresEncoding() async throws {
        let videos = FeedLoader.demo().videos

        let json = try await FeedProcess.run(["list", "--json"])
        let ndjson = try await FeedProcess.run(["list", "--ndjson"])

        #expect(Array(json.stdout.utf8) == JSONOutput.array(videos))
        #expect(Array(ndjson.stdout.utf8) == JSONOutput.ndjson(videos))
    }
}
