import Foundation
import Testing
import FeedTestSupport

@Suite("feed show")
struct ShowCommandTests {
    @Test func knownIdPrintsEveryFieldAsKeyValueLines() throws {
        let run = try FeedProcess.run(["show", "1450"])

        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let fields = Dictionary(run.lines.map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }, uniquingKeysWith: { first, _ in first })
        #expect(fields["id"] == "1450")
        #expect(fields["username"] == "eric")
        #expect(fields["topic"] == "restos")
        #expect(fields["likes"] == "22")
        #expect(fields["hashtags"] == "#french")
        for key in ["user_id", "profile_pic_url", "description", "viewers", "video", "thumbnail", "duration", "width", "height"] {
            #expect(fields[key] != nil, "missing \(key)")
        }
    }

    @Test func jsonIsOneObject() throws {
        let run = try FeedProcess.run(["show", "1739", "--json"])

        let object = try #require(try run.json() as? [String: Any])
        #expect(object["id"] as? Int == 1739)
        #expect(object["username"] as? String == "jenny")
    }

    @Test func unknownIdExitsSixtyFiveNamingItAndTheFile() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("videos.json", Fixture.videos)

        let run = try FeedProcess.run(["show", "99", "--feed", path])

        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("feed: "))
        #expect(run.stderr.contains("videos.json"))
        #expect(run.stderr.contains("id 99"), "names the id: \(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "one line: \(run.stderr)")
    }

    @Test func postOfAnAlbumFeedShowsItsMedia() throws {
        let path = FeedProcess.peerData.appendingPathComponent("ArshwinDenuevLal__FeedsApp__FeedsJSON.json").path
        let run = try FeedProcess.run(["show", "DJDphyX", "--feed", path])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Chasing Morning Light"))
        #expect(run.lines.contains { $0.hasPrefix("media[0].url:") && $0.contains("https://i.imgur.com/0aNIBif.jpeg") })
    }
}
