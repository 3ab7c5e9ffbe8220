@testable import FeedCLI
import FeedCore
import Testing

@Suite("FailureMessage and ExitStatus (the CLI's one mapping of FeedCore failures)")
struct FailureMessageTests {
    @Test("every failure kind has one exit status, the documented one")
    func kindsMapToTheDocumentedStatuses() {
        let expected: [FailureKind: Int32] = [
            .usage: 64, .invalidData: 65, .notFound: 65, .conflict: 65, .missingInput: 66,
            .unavailable: 70, .bug: 70, .cannotCreate: 73, .io: 74, .interrupted: 130,
            .tooLarge: 65, .unauthorized: 77, .forbidden: 77, .fault: 70,
        ]
        for kind in FailureKind.allCases {
            #expect(ExitStatus(kind).rawValue == expected[kind], "\(kind)")
        }
    }

    @Test("stack options are named by their flags on the command line only")
    func stackOptionsGetTheirFlags() {
        let width = StackError.invalidOption(.width, problem: "must be 2…16384, not 0")
        #expect(width.description == "width must be 2…16384, not 0")
        #expect(FailureMessage.text(width) == "--width must be 2…16384, not 0")
        #expect(FailureMessage.text(StackError.invalidOption(.output, problem: "needs a file name")) == "-o needs a file name")
        #expect(FailureMessage.text(StackError.outputExists(path: "out.mp4")) == "out.mp4: already exists; pass --force to replace it")
        #expect(FailureMessage.text(StackError.noOverlap(offset: 9)).contains("--until longest"))
    }

    @Test("roll failures get the flag or command that helps")
    func rollHints() {
        let duplicate = RollError.duplicate(path: "a.mp4", existingID: 3)
        #expect(!duplicate.description.contains("--"))
        #expect(FailureMessage.text(duplicate) == "a.mp4: same content as recording 3; nothing was added (use --allow-duplicate to add it anyway)")
        #expect(FailureMessage.text(RollError.invalidOption("columns", problem: "must be 1 or more")) == "--columns must be 1 or more")
        #expect(FailureMessage.text(RollError.emptyRoll).contains("feed roll add"))
        #expect(FailureMessage.text(RollError.unknownID("7")) == RollError.unknownID("7").description)
    }
}
