import Foundation
import Testing
import FeedTestSupport

@Suite("feed show")
struct ShowCommandTests {
    /// The `key: value` lines of a run, keyed by key (values trimmed).
    private static func fields(_ run: FeedRun) -> [String: String] {
        Dictionary(run.lines.map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }, uniquingKeysWith: { first, _ in first })
    }

    @Test func knownIdPrintsEveryFieldAsKeyValueLines() async throws {
        let run = try await FeedProcess.run(["show", "1450"])

        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let fields = Self.fields(run)
        #expect(fields["id"] == "1450")
        #expect(fields["username"] == "eric")
        #expect(fields["topic"] == "restos")
        #expect(fields["likes"] == "22")
        #expect(fields["hashtags"] == "#french")
        for key in ["user_id", "profile_pic_url", "description", "viewers", "video", "thumbnail", "duration", "width", "height"] {
            #expect(fields[key] != nil, "missing \(key)")
        }
    }

    @Test func jsonIsOneObject() async throws {
        let run = try await FeedProcess.run(["show", "1739", "--json"])

        let object = try #require(try run.json() as? [String: Any])
        #expect(object["id"] as? Int == 1739)
        #expect(object["username"] as? String == "jenny")
    }

    @Test func unknownIdExitsSixtyFiveNamingItAndTheFile() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("videos.json", Fixture.videos)

        let run = try await FeedProcess.run(["show", "99", "--feed", path])

        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("feed: "))
        #expect(run.stderr.contains("videos.json"))
        #expect(run.stderr.contains("id 99"), "names the id: \(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "one line: \(run.stderr)")
    }

    @Test func postOfTheAlbumFixtureShowsEachMedium() async throws {
        let run = try await FeedProcess.run(["show", "MixVid2", "--feed", FormatFixture.feedsApp.path])

        #expect(run.status == 0, "\(run.stderr)")
        let fields = Self.fields(run)
        #expect(fields["title"] == "Sunrise ☀️ over the bay")
        #expect(fields["account_id"] == "acct-β")
        #expect(fields["created_at"] == "2025-05-01T06:30:00Z")
        #expect(fields["media[0].type"] == "image")
        #expect(fields["media[0].duration"] == nil, "images have no playback fields")
        #expect(fields["media[1].url"] == "https://i.imgur.example.test/vid2a.mp4")
        #expect(fields["media[1].duration"] == "35.035 s")
        #expect(fields["media[1].is_looping"] == "true" && fields["media[1].has_sound"] == "true")
        #expect(fields["media[2].duration"] == "8 s")
        #expect(fields["media[2].is_looping"] == "false")
        #expect(fields["media[3].id"] == nil)
    }

    @Test("one entry of each format fixture, found by its id as written", arguments: [
        (FormatFixture.liver, "0042", ["username": "zero-padded", "video": "https://cdn.example.test/v/0042.mp4", "profile_pic_url": "-", "hashtags": "-"]),
        (.liver, "clip-7", ["username": "山田", "description": #"Line one line "two" #日本 #2024"#, "hashtags": "#日本 #2024", "topic": "-"]),
        (.liver, "101", ["username": "amélie", "duration": "12.5 s", "width": "720", "hashtags": "#tacos #food #café"]),
        (.feedsApp, "AlbImg1", ["title": "Harbour at first light", "media[1].url": "https://i.imgur.example.test/img1b.png", "media[1].size": "88001 bytes"]),
        (.feedsApp, "Empty4", ["title": "An album with nothing in it yet", "created_at": "-", "url": "-"]),
        (.pexels, "1001", ["username": "Zoë Ångström", "video": "https://videos.pexels.example.test/1001-hd.mp4", "duration": "15 s"]),
        (.pexels, "1004", ["username": "-", "video": "https://videos.pexels.example.test/1004-a.webm", "thumbnail": "-"]),
    ])
    func entryOfEachFormatFixture(fixture: FormatFixture, id: String, expected: [String: String]) async throws {
        let run = try await FeedProcess.run(["show", id, "--feed", fixture.path])

        #expect(run.status == 0, "\(run.stderr)")
        let fields = Self.fields(run)
        #expect(fields["id"] == id)
        for (key, value) in expected {
            #expect(fields[key] == value, "\(key)")
        }
    }

    @Test func textIDWithLeadingZerosStaysTextInJSON() async throws {
        let run = try await FeedProcess.run(["show", "0042", "--feed", FormatFixture.liver.path, "--json"])

        let object = try #require(try run.json() as? [String: Any])
        #expect(object["id"] as? String == "0042")
        #expect(object["profile_pic_url"] is NSNull, "an empty URL is absent")
    }

    @Test func aCommentIDIsNotAVideo() async throws {
        let run = try await FeedProcess.run(["show", "c-2", "--feed", FormatFixture.liverComments.path])

        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasSuffix("feed: \(FormatFixture.liverComments.path): no video or post has id c-2\n"), "\(run.stderr)")
    }

    @Test(.peerDataIsPresent) func postOfAnAlbumFeedShowsItsMedia() async throws {
        let path = PeerData.file("ArshwinDenuevLal__FeedsApp__FeedsJSON.json").path
        let run = try await FeedProcess.run(["show", "DJDphyX", "--feed", path])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Chasing Morning Light"))
        #expect(run.lines.contains { $0.hasPrefix("media[0].url:") && $0.contains("https://i.imgur.com/0aNIBif.jpeg") })
    }
}
