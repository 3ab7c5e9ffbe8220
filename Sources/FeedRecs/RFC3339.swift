import Foundation

/// RFC 3339 times as events carry them (`2026-12-02T16:44:20Z`, `…20.125+01:00`), read without
/// a formatter: a batch of 1,000 events reads 1,000 of them.
enum RFC3339 {
    /// The time `text` names, or nil when it is no RFC 3339 date-time.
    static func date(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for i in at..<(at + count) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D, let day = digits(8, 2),
              b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, let hour = digits(11, 2), b[13] == 0x3A, let minute = digits(14, 2),
              b[16] == 0x3A, let second = digits(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var fraction = 0.0
        if index < b.count, b[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, (0x30...0x39).contains(b[index]) {
                fraction += Double(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offset = 0
        switch b[index] {
        case 0x5A, 0x7A:
            index += 1
        case 0x2B, 0x2D:
            guard let h = digits(index + 1, 2), index + 3 < b.count, b[index + 3] == 0x3A, let m = digits(index + 4, 2), h < 24, m < 60 else {
                return nil
            }
            offset = (h * 3600 + m * 60) * (b[index] == 0x2B ? 1 : -1)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        // Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
