import Foundation
@testable import FeedCLI
import Testing

@Suite("Table")
struct TableTests {
    private func table() -> Table {
        var table = Table(columns: [
            .init(header: "ID"),
            .init(header: "LIKES", rightAligned: true),
            .init(header: "TEXT", flexible: true),
        ])
        table.rows = [["1", "7", "short"], ["22", "1234", String(repeating: "long ", count: 30)]]
        return table
    }

    @Test func flexibleColumnIsCutToTheWidth() {
        let lines = table().render(width: 40, style: Style(enabled: false)).split(separator: "\n")

        #expect(lines.count == 3)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 })
        #expect(lines[2].hasSuffix("…"))
        #expect(lines[1].hasSuffix("short"), "short text is not padded")
    }

    @Test func withoutAWidthNothingIsCut() {
        let lines = table().render(width: nil, style: Style(enabled: false)).split(separator: "\n")

        #expect(lines[2].hasSuffix(String(repeating: "long ", count: 30)))
        #expect(!lines.contains { $0.contains("…") })
    }

    @Test func fixedColumnsAreNeverCutEvenWhenTooWide() {
        var table = Table(columns: [.init(header: "FILE"), .init(header: "TEXT", flexible: true)])
        let path = "/a/very/long/path/" + String(repeating: "folder/", count: 12) + "clip.mp4"
        table.rows = [[path, "some free text"]]

        let lines = table.render(width: 40, style: Style(enabled: false)).split(separator: "\n")

        #expect(lines[1].hasPrefix(path + "  "), "the identifying column is whole: \(lines[1])")
    }

    @Test func countsAreRightAligned() {
        let lines = table().render(width: 80, style: Style(enabled: false)).split(separator: "\n")

        #expect(lines[0].hasPrefix("ID  LIKES  "))
        #expect(lines[1].hasPrefix("1       7  "))
        #expect(lines[2].hasPrefix("22   1234  "))
    }

    @Test func stylesOnlyWhenEnabled() {
        #expect(!table().render(width: 80, style: Style(enabled: false)).contains("\u{1B}["))
        #expect(table().render(width: 80, style: Style(enabled: true)).contains("\u{1B}[1mID"))
    }
}
