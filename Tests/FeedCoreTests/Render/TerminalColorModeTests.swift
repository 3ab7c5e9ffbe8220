import Testing
@testable import FeedCore
@testable import FeedPlayer

@Suite struct TerminalColorModeTests {
    @Test(arguments: [
        ("truecolor", TerminalColorMode.truecolor), ("24bit", .truecolor), ("TrueColor", .truecolor),
        ("", .palette256), ("yes", .palette256),
    ])
    func colortermDecides(value: String, mode: TerminalColorMode) {
        #expect(TerminalColorMode.detect(environment: ["COLORTERM": value, "TERM": "xterm-256color"]) == mode)
    }

    @Test func withoutColortermItIsThe256ColourPalette() {
        #expect(TerminalColorMode.detect(environment: ["TERM": "xterm-256color"]) == .palette256)
    }
}
