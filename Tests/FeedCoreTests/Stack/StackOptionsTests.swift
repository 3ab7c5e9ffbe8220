import Foundation
import Testing
@testable import FeedCore

@Suite("StackOptions")
struct StackOptionsTests {
    @Test("WxH parses; anything else does not", arguments: [("720x1280", true), ("1080X1920", true), ("720", false), ("x1280", false), ("7x2x3", false), ("axb", false)])
    func size(text: String, valid: Bool) {
        let size = StackOptions.Size(parsing: text)
        #expect((size != nil) == valid)
        if text == "720x1280" { #expect(size == StackOptions.Size(width: 720, height: 1280)) }
    }

    @Test("the default output name carries the local date and time")
    func defaultName() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let date = calendar.date(from: DateComponents(year: 2026, month: 3, day: 4, hour: 5, minute: 6, second: 7))!
        #expect(StackOptions.defaultOutputName(date: date, exists: { _ in false }) == "stacked-20260304-050607.mp4")
        // A stack of the same second took the name (and the next): the first free one follows.
        let taken: Set = ["stacked-20260304-050607.mp4", "stacked-20260304-050607-2.mp4"]
        #expect(StackOptions.defaultOutputName(date: date, exists: { taken.contains($0) }) == "stacked-20260304-050607-3.mp4")
        #expect(StackOptions.nextDefaultName(after: "out/stacked-20260304-050607.mp4") == "out/stacked-20260304-050607-2.mp4")
        #expect(StackOptions.nextDefaultName(after: "stacked-20260304-050607-9.mp4") == "stacked-20260304-050607-10.mp4")
        #expect(StackOptions.nextDefaultName(after: "mine.mp4") == "mine-2.mp4")
    }

    @Test("defaults validate; each out-of-range value is a usage error naming the option, not a flag")
    func validate() throws {
        try StackOptions(output: "out.mp4").validate()
        let cases: [(StackOptions.Field, (inout StackOptions) -> Void)] = [
            (.width, { $0.width = 0 }), (.size, { $0.size = .init(width: 2, height: 100) }), (.fps, { $0.fps = -1 }),
            (.crf, { $0.crf = 52 }), (.preset, { $0.preset = "fastest" }), (.offset, { $0.offset = .nan }),
            (.output, { $0.output = "" }),
        ]
        for (field, configure) in cases {
            var options = StackOptions(output: "out.mp4")
            configure(&options)
            #expect(throws: StackError.self) { try options.validate() }
            do { try options.validate() } catch {
                guard case .invalidOption(let named, _) = error else { Issue.record("\(field): \(error)"); continue }
                #expect(named == field && error.kind == .usage)
                #expect(error.description.hasPrefix(field.rawValue + " ") && !error.description.contains("--"), "\(error)")
            }
        }
    }
}
