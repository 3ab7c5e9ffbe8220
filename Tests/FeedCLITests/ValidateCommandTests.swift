import Foundation
import Testing
import FeedTestSupport

@Suite("feed validate")
struct ValidateCommandTests {
    @Test func goodFileExitsZeroWithASummary() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("videos.json", Fixture.videos)

        let run = try await FeedProcess.run(["validate", path])

        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "1 file checked: no problems\n")
    }

    @Test func wrongTypeGivesTheOneLineLocatedError() async throws {
        let folder = try ScratchFolder()
        // The fourth video's likes (videos[3]) becomes a string.
        var text = Fixture.videos
        let target = try #require(text.range(of: "\"likes\": 4,"))
        text.replaceSubrange(target, with: "\"likes\": \"many\",")
        let path = try folder.write("videos.json", text)
        let at = try #require(Fixture.location(of: "\"many\"", in: text))

        let run = try await FeedProcess.run(["validate", path])

        #expect(run.status == 65)
        #expect(run.stdout == "\(path):\(at.line):\(at.column): videos[3].likes: expected an integer, found \"many\"\n")
        #expect(run.stderr.contains("1 error"))
    }

    @Test func listReportsTheSameErrorAndExitsSixtyFive() async throws {
        let folder = try ScratchFolder()
        var text = Fixture.videos
        text.replaceSubrange(try #require(text.range(of: "\"likes\": 4,")), with: "\"likes\": \"many\",")
        let path = try folder.write("videos.json", text)
        let at = try #require(Fixture.location(of: "\"many\"", in: text))

        let run = try await FeedProcess.run(["list", "--feed", path])

        #expect(run.status == 65)
        #expect(run.stderr == "feed: \(path):\(at.line):\(at.column): videos[3].likes: expected an integer, found \"many\"\n")
    }

    @Test func everyProblemOfTheFileIsListed() async throws {
        let folder = try ScratchFolder()
        var text = Fixture.videos
        text.replaceSubrange(try #require(text.range(of: "\"likes\": 4,")), with: "\"likes\": \"many\",")
        text.replaceSubrange(try #require(text.range(of: "\"viewers\": 202,")), with: "\"viewers\": -3,")
        let path = try folder.write("videos.json", text)

        let run = try await FeedProcess.run(["validate", path])

        #expect(run.status == 65)
        #expect(run.lines.count == 2, "\(run.stdout)")
        #expect(run.lines.contains { $0.contains("videos[1].viewers: ") })
        #expect(run.lines.contains { $0.contains("videos[3].likes: ") })
        #expect(run.lines.allSatisfy { $0.hasPrefix(path + ":") })
    }

    @Test func duplicateIdIsAWarningNotAFailure() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("dup.json", Fixture.feed([(5, "a", 1, "x"), (5, "b", 2, "y")]))

        let run = try await FeedProcess.run(["validate", path])

        #expect(run.status == 0)
        #expect(run.lines.count == 1)
        #expect(run.lines.first?.contains(": warning: videos[1]") == true, "\(run.stdout)")
        #expect(run.stderr.contains("1 warning"))
    }

    @Test func missingFileExitsSixtySixAndTheOthersAreStillChecked() async throws {
        let folder = try ScratchFolder()
        let good = try folder.write("good.json", Fixture.videos)
        let bad = try folder.write("bad.json", "{\"videos\": [ {\"id\": 1} ")
        let missing = folder.url.appendingPathComponent("nope.json").path

        let run = try await FeedProcess.run(["validate", missing, bad, good])

        #expect(run.status == 66)
        #expect(run.stderr.contains("feed: ") && run.stderr.contains("nope.json"))
        #expect(run.lines.count >= 1)
        #expect(run.lines.allSatisfy { $0.hasPrefix(bad + ":") }, "\(run.stdout)")
    }

    @Test func jsonReportsEveryFile() async throws {
        let folder = try ScratchFolder()
        let good = try folder.write("good.json", Fixture.videos)
        let bad = try folder.write("bad.json", "[1, 2,, 3]")
        let missing = folder.url.appendingPathComponent("nope.json").path

        let run = try await FeedProcess.run(["validate", "--json", good, bad, missing])

        #expect(run.status == 66)
        let results = try run.objects()
        #expect(results.compactMap { $0["file"] as? String } == [good, bad, missing])
        #expect(results.compactMap { $0["ok"] as? Bool } == [true, false, false])
        #expect(results[0]["error"] is NSNull)
        #expect(results[2]["error"] is String)
        let problem = try #require((results[1]["problems"] as? [[String: Any]])?.first)
        #expect(problem["line"] as? Int == 1)
        #expect(problem["column"] is Int && problem["path"] is String && problem["message"] is String)
        #expect(problem["severity"] as? String == "error")
    }

    @Test func everyFormatFixtureIsValidWithItsWarningsLocated() async throws {
        // Given the four format fixtures, two of which repeat an id
        let paths = FormatFixture.allCases.map(\.path)
        let videos = try FormatFixture.liver.text(), comments = try FormatFixture.liverComments.text()
        let video = try #require(Fixture.location(of: #""id": "101""#, in: videos))
        let comment = try #require(Fixture.location(of: #""id": 1, "username": "dup""#, in: comments))

        let run = try await FeedProcess.run(["validate"] + paths)

        // Then they pass, each warning on its own located line, in the order of the files
        #expect(run.status == 0)
        #expect(run.lines == [
            "\(FormatFixture.liver.path):\(video.line):\(video.column + 6): warning: videos[4].id: duplicate id \"101\" (first used by videos[0])",
            "\(FormatFixture.liverComments.path):\(comment.line):\(comment.column + 6): warning: comments[3].id: duplicate id 1 (first used by comments[0])",
        ])
        #expect(run.stderr == "4 files checked: 2 warnings\n")
    }

    @Test(arguments: FormatFixture.allCases)
    func eachFormatFixtureAsJSON(fixture: FormatFixture) async throws {
        let run = try await FeedProcess.run(["validate", "--json", fixture.path])

        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(try run.objects().first)
        #expect(result["file"] as? String == fixture.path)
        #expect(result["ok"] as? Bool == true)
        let problems = try #require(result["problems"] as? [[String: Any]])
        #expect(problems.allSatisfy { $0["severity"] as? String == "warning" })
        #expect(problems.count == ([.liver, .liverComments].contains(fixture) ? 1 : 0))
    }

    @Test(arguments: FormatFixture.allCases)
    func eachFormatFixtureFailsAsAnotherFormat(fixture: FormatFixture) async throws {
        // Forced to a format it is not, a fixture is an error at its root (line 1, column 1
        // even after the LIVEr fixture's byte-order mark)
        let other = fixture == .feedsApp ? "liver" : "feedsapp"

        let run = try await FeedProcess.run(["validate", "--format", other, fixture.path])

        #expect(run.status == 65)
        #expect(run.lines.first?.hasPrefix("\(fixture.path):1:1: ") == true, "\(run.stdout)")
    }

    @Test func noFileIsAUsageError() async throws {
        let run = try await FeedProcess.run(["validate"])

        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("feed: "))
    }

    @Test func dashChecksStandardInput() async throws {
        let run = try await FeedProcess.run(["validate", "-"], stdin: Data("{\"videos\": [}".utf8))

        #expect(run.status == 65)
        #expect(run.lines.count == 1)
        #expect(run.lines.first?.hasPrefix("<stdin>:1:") == true, "\(run.stdout)")
    }
}

extension ValidateCommandTests {
    @Test("with no file, validate checks $FEED_PATH, as every command reads it")
    func feedPath() async throws {
        let folder = try ScratchFolder()
        let bad = try folder.write("bad.json", #"{"videos": [{"id": 1, "username": "me", "likes": "many"}]}"#)
        let run = try await FeedProcess.run(["validate"], environment: ["FEED_PATH": bad])
        #expect(run.status == 65 && run.stdout.contains("videos[0].likes"), "\(run.stdout)\(run.stderr)")
        let none = try await FeedProcess.run(["validate"])
        #expect(none.status == 64 && none.stderr.contains("or set FEED_PATH"), "\(none.stderr)")
    }
}
