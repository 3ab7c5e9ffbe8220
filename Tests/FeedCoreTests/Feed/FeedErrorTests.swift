import Testing
@testable import FeedCore

@Suite struct FeedErrorTests {
    @Test func messagesAndExitStatuses() {
        let problem = FeedProblem(file: "v.json", line: 4, column: 2, path: "videos[0].id", message: "m")
        #expect(FeedError.invalid(problem).description == "v.json:4:2: videos[0].id: m")
        #expect(FeedError.invalid(problem).kind == .invalidData)
        #expect(FeedError.missingFile(path: "a.json").description == "a.json: no such file")
        #expect(FeedError.unreadable(path: "a", reason: "Permission denied").kind == .io)
        #expect(FeedError.unknownID(.int(9), source: "<demo>").description == "<demo>: no video or post has id 9")
        #expect(FeedError.unknownID(.int(9), source: "<demo>").kind == .notFound)
    }

    @Test func problemDescriptionOmitsAnEmptyPathAndMarksWarnings() {
        #expect(FeedProblem(file: "f", line: 1, column: 1, path: "", message: "bad").description == "f:1:1: bad")
        #expect(FeedProblem(file: "f", line: 2, column: 3, path: "x", message: "dup", severity: .warning).description
                == "f:2:3: warning: x: dup")
    }
}
