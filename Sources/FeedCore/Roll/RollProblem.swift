/// One thing ``Roll/verify()`` found wrong. Each describes itself in one line, and
/// ``Roll/fix()`` knows a repair for each.
public enum RollProblem: Sendable, Equatable, CustomStringConvertible {
    /// A row whose file is gone. Fix: drop the row.
    case missingFile(id: Int64, fileName: String)
    /// A row whose file's bytes changed. Fix: re-probe and record the file as it is now.
    case hashMismatch(id: Int64, fileName: String, expected: String, actual: String)
    /// A row whose stored bytes are not its size (found without hashing, as a bucket is checked
    /// unless `--deep`). Fix: as ``hashMismatch(id:fileName:expected:actual:)``.
    case sizeMismatch(id: Int64, fileName: String, expected: Int64, actual: Int64)
    /// A removal stopped after the file went to `.trash/`. Fix: finish it.
    case interruptedRemoval(id: Int64, fileName: String)
    /// A file in `recordings/` with no row (an add stopped before its insert). Fix: adopt it.
    case orphan(fileName: String)
    /// A partial copy in `.incoming/`. Fix: delete it.
    case incomingLeftover(name: String)
    /// A file in `.trash/` whose row is already gone. Fix: delete it.
    case trashLeftover(name: String)
    /// A cached HLS ladder in `.hls/` of a recording that is gone or whose content changed, or
    /// a packaging that never finished. Fix: delete it (it is made again on demand).
    case staleHLS(name: String)
    /// A cached poster in `.thumbs/` of a recording that is gone or whose content changed, or
    /// a write that never finished. Fix: delete it (it is made again on demand).
    case stalePoster(name: String)
    /// A fast-start copy in `.faststart/` of a recording that is gone or whose content changed,
    /// or a copy that never finished. Fix: delete it (the server makes it again on demand).
    case staleFastStart(name: String)

    public var description: String {
        switch self {
        case let .missingFile(id, file): "recording \(id): file \(file) is missing"
        case let .hashMismatch(id, file, expected, actual):
            "recording \(id): \(file) changed (sha256 \(actual.prefix(12))…, expected \(expected.prefix(12))…)"
        case let .sizeMismatch(id, file, expected, actual): "recording \(id): \(file) changed (\(actual) bytes, expected \(expected))"
        case let .interruptedRemoval(id, file): "recording \(id): removal of \(file) was interrupted"
        case let .orphan(file): "orphan file \(file) has no recording"
        case let .incomingLeftover(name): "leftover partial copy .incoming/\(name)"
        case let .trashLeftover(name): "leftover removed file .trash/\(name)"
        case let .staleHLS(name): "stale HLS ladder .hls/\(name)"
        case let .stalePoster(name): "stale poster .thumbs/\(name)"
        case let .staleFastStart(name): "stale fast-start copy .faststart/\(name)"
        }
    }

    /// What `--fix` does about it, in a few words.
    public var repair: String {
        switch self {
        case .missingFile: "dropped the row"
        case .hashMismatch, .sizeMismatch: "recorded the file as it is now"
        case .interruptedRemoval: "finished the removal"
        case .orphan: "adopted it"
        case .incomingLeftover, .trashLeftover, .staleHLS, .stalePoster, .staleFastStart: "deleted it"
        }
    }
}

/// The result of ``Roll/verify()``: how many recordings were checked and what is wrong.
public struct RollReport: Sendable, Equatable {
    /// Rows checked.
    public var checked: Int
    /// Everything wrong, rows first (by id), then files (by name), then caches (by name).
    public var problems: [RollProblem]
    /// Whether nothing is wrong.
    public var isClean: Bool { problems.isEmpty }
}

/// The result of ``Roll/fix()``: what was repaired, what could not be, and the state after.
public struct RollRepair: Sendable, Equatable {
    /// Problems repaired.
    public var repaired: [RollProblem]
    /// Problems that could not be repaired, each with the reason.
    public var failed: [(problem: RollProblem, reason: String)]
    /// A fresh verify after the repairs.
    public var after: RollReport

    public static func == (a: RollRepair, b: RollRepair) -> Bool {
        a.repaired == b.repaired && a.after == b.after && a.failed.map(\.problem) == b.failed.map(\.problem)
            && a.failed.map(\.reason) == b.failed.map(\.reason)
    }
}
