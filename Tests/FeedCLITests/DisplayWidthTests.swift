@testable import FeedCLI
import Testing

@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test(arguments: [("tacos", 5), ("café", 4), ("cafe\u{301}", 4), ("疯狂", 4), ("🔥", 2), ("", 0)])
    func columnsOfText(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func truncateFitsAndMarksTheCut() {
        let text = "Tasty 疯狂 celebrations 🔥 #food"

        for columns in 1...DisplayWidth.of(text) - 1 {
            let cut = DisplayWidth.truncate(text, to: columns)
            #expect(DisplayWidth.of(cut) <= columns, "\(columns): \(cut)")
            #expect(cut.hasSuffix("…"))
        }
        #expect(DisplayWidth.truncate(text, to: DisplayWidth.of(text)) == text)
    }

    @Test func padAlignsByColumnsNotCharacters() {
        #expect(DisplayWidth.pad("疯", to: 4) == "疯  ")
        #expect(DisplayWidth.pad("42", to: 5, rightAligned: true) == "   42")
    }
}
