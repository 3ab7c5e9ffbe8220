import Testing
@testable import FeedServer

/// `/proc/self/stat` as ``ProcessStats`` reads it (proc(5)).
@Suite("ProcessStats")
struct ProcessStatsTests {
    /// A line as Linux writes it, for a command named `name`: pid, (comm), state, then fields 4…
    /// with utime 250 and stime 50 ticks, starttime 1000 ticks, vsize 4096000 bytes, rss 300 pages.
    static func line(_ name: String) -> String {
        let after = ["S", "1", "1", "1", "0", "-1", "4194560", "100", "0", "0", "0", "250", "50", "0", "0", "20", "0", "9", "0", "1000",
                     "4096000", "300", "18446744073709551615"]
        return "4242 (\(name)) " + after.joined(separator: " ") + "\n"
    }

    @Test("CPU, memory and start time from their fields, whatever the command's name holds", arguments: ["feed", "a) b (c", "x ) 1 2 3"])
    func fields(name: String) {
        var stats = ProcessStats()
        stats.read(stat: Self.line(name), ticksPerSecond: 100, pageSize: 4096, bootTime: 1_700_000_000)
        #expect(stats.cpuSeconds == 3, "(250 + 50) ticks at 100 a second")
        #expect(stats.virtualBytes == 4_096_000 && stats.residentBytes == 300 * 4096)
        #expect(stats.startTime == 1_700_000_010, "boot + 1000 ticks")
    }

    @Test("a line cut short or with no command leaves the figures it lacks nil")
    func short() {
        var stats = ProcessStats()
        stats.read(stat: "4242 (feed) S 1 1 1 0 -1 4194560 100 0 0 0 250 50", ticksPerSecond: 100, pageSize: 4096, bootTime: 1)
        #expect(stats.cpuSeconds == 3 && stats.virtualBytes == nil && stats.residentBytes == nil && stats.startTime == nil)
        var none = ProcessStats()
        none.read(stat: "garbage", ticksPerSecond: 100, pageSize: 4096, bootTime: 1)
        #expect(none.cpuSeconds == nil && none.startTime == nil)
        var noBoot = ProcessStats()
        noBoot.read(stat: Self.line("feed"), ticksPerSecond: 100, pageSize: 4096, bootTime: nil)
        #expect(noBoot.startTime == nil && noBoot.cpuSeconds == 3)
    }

    @Test("this process: the figures /proc gives are there and plausible")
    func current() {
        let stats = ProcessStats.current()
        #expect((stats.cpuSeconds ?? 0) > 0 && (stats.residentBytes ?? 0) > 1_000_000 && (stats.openFileDescriptors ?? 0) >= 3)
        #expect(stats.maxFileDescriptors.map { $0 >= (stats.openFileDescriptors ?? 0) } ?? true)
    }
}
