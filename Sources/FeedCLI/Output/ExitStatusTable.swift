import FeedCore

/// The EXIT STATUS section of `feed --help`, built from FeedCore's `ExitStatus` so the
/// documented numbers are the ones the process really uses.
enum ExitStatusTable {
    /// One line per status: "  65  bad data: …".
    static var text: String {
        var lines = ["EXIT STATUS:"]
        for status in ExitStatus.allCases {
            let number = String(status.rawValue)
            lines.append("  " + number + String(repeating: " ", count: 5 - number.count) + meaning(of: status))
        }
        return lines.joined(separator: "\n")
    }

    /// What a status means, in the words of `--help`.
    static func meaning(of status: ExitStatus) -> String {
        switch status {
        case .ok: "success"
        case .failure: "a check failed, but the input was readable"
        case .usage: "bad command line (unknown option, missing argument, bad value)"
        case .dataError: "bad data: invalid JSON, wrong type, unknown id, not a media file"
        case .noInput: "an input file does not exist"
        case .software: "internal error"
        case .cantCreate: "an output file or folder cannot be created"
        case .ioError: "reading or writing failed"
        case .noPermission: "not allowed: a server refused the credentials given (or none were given)"
        case .interrupted: "interrupted (Ctrl-C)"
        }
    }
}
