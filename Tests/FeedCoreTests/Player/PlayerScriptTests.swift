import Testing
@testable import FeedCore
@testable import FeedPlayer

@Suite struct PlayerScriptTests {
    @Test func theIssuesExampleScriptReadsInOrder() throws {
        let commands = try PlayerScript.parse("next,next,prev,pause,seek:+5,next")

        #expect(commands == [.move(.next), .move(.next), .move(.previous), .pause, .seek(seconds: 5), .move(.next)])
    }

    @Test func everyStepKindWithSpacesAroundIt() throws {
        let commands = try PlayerScript.parse(" to:12 , previous,resume,seek:-2.5,mute,unmute,like,bookmark\n")

        #expect(commands == [.move(.to(12)), .move(.previous), .resume, .seek(seconds: -2.5), .mute, .unmute, .like, .bookmark])
    }

    @Test func commandsSpellBackToTheirScript() throws {
        let script = "next,prev,to:3,pause,resume,seek:+5,seek:-2.5,mute,unmute,like,bookmark"

        let commands = try PlayerScript.parse(script)

        #expect(commands.map(\.description).joined(separator: ",") == script)
    }

    @Test func terminalOnlyCommandsAreNotScriptSteps() throws {
        #expect(PlayerCommand.autoAdvance.description == "auto" && PlayerCommand.quit.description == "quit")
        #expect(throws: PlayerScriptError.self) { try PlayerScript.parse("next,quit") }
        #expect(throws: PlayerScriptError.self) { try PlayerScript.parse("auto") }
    }

    @Test(arguments: [
        ("next,jump", 2, "jump"), ("to:-1", 1, "to:-1"), ("to:x", 1, "to:x"), ("seek:5", 1, "seek:5"),
        ("seek:+inf", 1, "seek:+inf"), ("next,,next", 2, ""), ("Next", 1, "Next"),
    ])
    func aBadStepIsNamedWithItsPosition(script: String, index: Int, step: String) {
        #expect {
            try PlayerScript.parse(script)
        } throws: { error in
            guard case .badStep(let badIndex, let badStep, _) = error as? PlayerScriptError else { return false }
            return badIndex == index && badStep == step
        }
    }

    @Test func messagesAreOneLineAndSayWhatToWrite() {
        let error = PlayerScriptError.badStep(index: 4, step: "seek:5", expected: "expected signed seconds like seek:+5 or seek:-2.5")

        #expect(error.description == "script step 4 \"seek:5\": expected signed seconds like seek:+5 or seek:-2.5")
        #expect(throws: PlayerScriptError.empty) { try PlayerScript.parse(" , ") }
        #expect(PlayerScriptError.empty.kind == .usage)
    }
}
