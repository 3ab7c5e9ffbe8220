import Testing
@testable import FeedServer

/// Prometheus' text exposition format as ``MetricsText`` writes it.
@Suite("MetricsText")
struct MetricsTextTests {
    @Test("numbers as the format writes them, escaped label values and help, HELP and TYPE before the samples")
    func format() {
        #expect(MetricsText.number(3) == "3" && MetricsText.number(0.25) == "0.25" && MetricsText.number(.infinity) == "+Inf"
            && MetricsText.number(.nan) == "NaN" && MetricsText.number(-2) == "-2")
        #expect(MetricsText.escapedLabel(#"a"b\c"# + "\nd") == #"a\"b\\c\nd"#)
        var text = MetricsText()
        text.family("x_total", "counter", "Lines\nand a \\.")
        text.sample("x_total", [("route", "/a/{id}"), ("q", "\"")], 2)
        text.sample("y", 1.5)
        #expect(text.text == "# HELP x_total Lines\\nand a \\\\.\n# TYPE x_total counter\nx_total{route=\"/a/{id}\",q=\"\\\"\"} 2\ny 1.5\n")
    }

    @Test("a carriage return and line feed in a label value: the line feed is escaped all the same")
    func crlf() {
        #expect(MetricsText.escapedLabel("a\r\nb") == "a\r\\nb")
        #expect(MetricsText.escapedHelp("a\r\nb \"q\"") == "a\r\\nb \"q\"", "help keeps its quotes")
        var text = MetricsText()
        text.sample("x", [("v", "1\r\n2")], 1)
        #expect(text.text.utf8.filter { $0 == 0x0A }.count == 1, "one line feed, the sample's own: \(text.text)")
    }
}
