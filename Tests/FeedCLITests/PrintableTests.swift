import Testing
@testable import FeedCLI

@Suite struct PrintableTests {
    @Test func plainTextIsUnchanged() {
        #expect(Printable.text("Tacos 🌮 #food") == "Tacos 🌮 #food")
    }

    @Test func controlCharactersCannotReachTheTerminal() {
        // An OSC title change, a CSI clear screen (C1 form), DEL and a bell.
        let hostile = "a\u{1B}]0;owned\u{07}b\u{9B}2Jc\u{7F}d\te\nf"
        #expect(Printable.text(hostile) == "a\u{FFFD}]0;owned\u{FFFD}b\u{FFFD}2Jc\u{FFFD}d e f")
    }
}
