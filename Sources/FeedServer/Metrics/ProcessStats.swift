import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process as the Prometheus client libraries' process collector reports it, read from
/// `/proc/self` at each scrape (Linux); a value the system does not give is nil and left out.
struct ProcessStats: Sendable {
    /// User and system CPU time, seconds.
    var cpuSeconds: Double?
    /// Resident memory, bytes.
    var residentBytes: Int?
    /// Virtual memory, bytes.
    var virtualBytes: Int?
    /// Open file descriptors (connections, files being sent, the catalog).
    var openFileDescriptors: Int?
    /// The limit on them (`RLIMIT_NOFILE`'s soft limit).
    var maxFileDescriptors: Int?
    /// When the process started, seconds since 1970.
    var startTime: Double?

    /// The figures now.
    static func current() -> ProcessStats {
        var stats = ProcessStats()
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8) {
            stats.read(stat: stat, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))), pageSize: Int(sysconf(Int32(_SC_PAGESIZE))),
                       bootTime: bootTime())
        }
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            // The listing's own descriptor is among them while it reads.
            stats.openFileDescriptors = max(0, descriptors.count - 1)
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max, limit.rlim_cur <= rlim_t(Int.max) {
            stats.maxFileDescriptors = Int(limit.rlim_cur)
        }
        return stats
    }

    /// Takes CPU time, memory and start time from `/proc/self/stat`'s text (proc(5)). The fields
    /// after the command's closing parenthesis (the command itself may hold spaces and
    /// parentheses: the last `)` ends it) start with the state, field 3; utime and stime are
    /// fields 14 and 15 (clock ticks), starttime 22 (ticks after boot), vsize 23 (bytes), rss 24
    /// (pages). A field that is missing or not a number leaves its figure nil.
    mutating func read(stat: String, ticksPerSecond ticks: Double, pageSize: Int, bootTime: Double?) {
        guard let close = stat.lastIndex(of: ")") else { return }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        func field(_ number: Int) -> Double? { fields.count > number - 3 ? Double(fields[number - 3]) : nil }
        if let utime = field(14), let stime = field(15), ticks > 0 { cpuSeconds = (utime + stime) / ticks }
        if let vsize = field(23) { virtualBytes = Int(vsize) }
        if let pages = field(24) { residentBytes = Int(pages) * pageSize }
        if let start = field(22), ticks > 0, let bootTime { startTime = bootTime + start / ticks }
    }

    /// The system's boot time, seconds since 1970 (`btime` in /proc/stat).
    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
