import Foundation

/// HTTP dates (RFC 9110 §5.6.7): written as IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`;
/// read in that form and in the two obsolete ones every recipient must accept, RFC 850
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
enum HTTPDate {
    private static let names = (days: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
                                months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])

    /// `date` as IMF-fixdate (whole seconds, rounded down). Zero-padded by hand: it is on every file
    /// response (`Last-Modified`), and `String(format:)` cost more than the rest of the head.
    static func string(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let (day, month) = (names.days[Int(parts.tm_wday)], names.months[Int(parts.tm_mon)])
        return "\(day), \(padded(parts.tm_mday, 2)) \(month) \(padded(parts.tm_year + 1900, 4)) "
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)) GMT"
    }

    /// The seconds since 1970 of an HTTP date in any of its three forms, or nil.
    static func seconds(_ text: String) -> Int64? {
        let fields = text.split(separator: " ")
        if fields.count == 6, fields[0].count == 4, fields[0].hasSuffix(","), fields[5] == "GMT",
           names.days.contains(String(fields[0].dropLast())), fields[1].count == 2, let day = Int(fields[1]),
           let month = names.months.firstIndex(of: String(fields[2])), fields[3].count == 4, let year = Int(fields[3]) {
            return seconds(year: year, month: month, day: day, clock: fields[4])
        }
        // RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`. A two-digit year is read in this century,
        // unless that is more than 50 years ahead, then in the last (RFC 9110 §5.6.7).
        if fields.count == 4, fields[0].hasSuffix(","), fields[3] == "GMT",
           names.days.contains(where: { fields[0].hasPrefix($0) }) {
            let date = fields[1].split(separator: "-")
            guard date.count == 3, date[0].count == 2, let day = Int(date[0]), let month = names.months.firstIndex(of: String(date[1])),
                  date[2].count == 2, let short = Int(date[2]) else { return nil }
            let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
            let century = thisYear / 100 * 100
            let year = century + short > thisYear + 50 ? century - 100 + short : century + short
            return seconds(year: year, month: month, day: day, clock: fields[2])
        }
        // asctime: `Sun Nov  6 08:49:37 1994` (a one-digit day is padded with a space).
        if fields.count == 5, names.days.contains(String(fields[0])), let month = names.months.firstIndex(of: String(fields[1])),
           (1...2).contains(fields[2].count), let day = Int(fields[2]), fields[4].count == 4, let year = Int(fields[4]) {
            return seconds(year: year, month: month, day: day, clock: fields[3])
        }
        return nil
    }

    /// The seconds since 1970 of a date and an `hh:mm:ss` clock, in GMT.
    private static func seconds(year: Int, month: Int, day: Int, clock text: Substring) -> Int64? {
        let clock = text.split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let h = Int(clock[0]), let m = Int(clock[1]), let s = Int(clock[2]),
              (1...31).contains(day), h < 24, m < 60, s < 61 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(h)
        parts.tm_min = Int32(m)
        parts.tm_sec = Int32(s)
        return Int64(timegm(&parts))
    }
}
