import Foundation

/// Shared machinery of the format decoders: typed reads of object members that record a
/// located problem (byte offset, path, message) for every wrong value and keep going, or
/// stop at the first error when `stopAtFirstError` is set.
struct DecodeContext {
    /// A problem before its line and column are computed.
    struct Pending {
        var offset: Int
        var path: String
        var message: String
        var severity: FeedProblem.Severity
    }

    let document: JSONDocument
    let stopAtFirstError: Bool
    /// Whether media may be named by a file path (else only by an absolute URL).
    let allowingPaths: Bool
    private(set) var pending: [Pending] = []

    init(document: JSONDocument, stopAtFirstError: Bool, allowingPaths: Bool = true) {
        self.document = document
        self.stopAtFirstError = stopAtFirstError
        self.allowingPaths = allowingPaths
    }

    /// Whether any error (not warning) was recorded.
    var hasErrors: Bool { pending.contains { $0.severity == .error } }

    /// Records a problem; throws ``StopDecoding`` for an error when stopping at the first.
    mutating func report(at offset: Int, path: String, _ message: String, severity: FeedProblem.Severity = .error) throws(StopDecoding) {
        pending.append(Pending(offset: offset, path: path, message: message, severity: severity))
        if severity == .error, stopAtFirstError { throw StopDecoding() }
    }

    /// The recorded problems, located in `source`, in document order.
    func problems(source: String) -> [FeedProblem] {
        let positions = TextPosition.locate(pending.map(\.offset), in: document.bytes)
        return zip(pending, positions)
            .map { FeedProblem(file: source, line: $1.line, column: $1.column, path: $0.path, message: $0.message, severity: $0.severity) }
            .enumerated()
            .sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
            .map(\.element)
    }

    // MARK: - Containers

    /// `node` as an object, or a problem "expected an object".
    mutating func object(_ node: Int, path: ItemPath) throws(StopDecoding) -> ObjectRef? {
        guard document.kind(node) == .object else {
            try mismatch(node, path: path.text, expected: "an object")
            return nil
        }
        if let (name, _) = document.repeatedName(in: node) {
            try report(at: document.offset(name), path: path.child(document.string(name)),
                       "duplicate key \"\(document.string(name))\" in this object: readers disagree on which value counts (jq takes the last)")
        }
        return ObjectRef(node: node, path: path)
    }

    /// The elements of array member `name`; nil (and a problem if required) when absent.
    mutating func array(_ object: ObjectRef, _ name: StaticString, required: Bool = false) throws(StopDecoding) -> [Int]? {
        guard let node = try present(object, name, required: required) else { return nil }
        guard document.kind(node) == .array else {
            try mismatch(node, path: object.path.child(name.description), expected: "an array")
            return nil
        }
        return document.elements(of: node)
    }

    /// The objects of array member `name`, each decoded by `decode`: elements that are not
    /// objects are reported and skipped, and so are those `decode` returns nil for.
    mutating func objects<T>(_ object: ObjectRef, _ name: StaticString, required: Bool,
                             _ decode: (ObjectRef, inout DecodeContext) throws(StopDecoding) -> T?) throws(StopDecoding) -> [T] {
        guard let elements = try array(object, name, required: required) else { return [] }
        let parent = object.path.child(name.description)
        var items: [T] = []
        items.reserveCapacity(elements.count)
        for (index, node) in elements.enumerated() {
            guard let item = try self.object(node, path: ItemPath(parent: parent, index: index)) else { continue }
            if let value = try decode(item, &self) { items.append(value) }
        }
        return items
    }

    /// Object member `name`, nil (and a problem if required) when absent.
    mutating func object(_ object: ObjectRef, _ name: StaticString, required: Bool = false) throws(StopDecoding) -> ObjectRef? {
        guard let node = try present(object, name, required: required) else { return nil }
        return try self.object(node, path: ItemPath(parent: object.path.child(name.description), index: nil))
    }

    // MARK: - Scalars

    /// String member `name`.
    mutating func string(_ object: ObjectRef, _ name: StaticString, required: Bool = false) throws(StopDecoding) -> String? {
        guard let node = try present(object, name, required: required) else { return nil }
        switch document.kind(node) {
        case .string, .escapedString: return document.string(node)
        default:
            try mismatch(node, path: object.path.child(name.description), expected: "a string")
            return nil
        }
    }

    /// Integer member `name`; with `count`, negative values are a problem too.
    mutating func int(_ object: ObjectRef, _ name: StaticString, required: Bool = false, count: Bool = false) throws(StopDecoding) -> Int? {
        guard let node = try present(object, name, required: required) else { return nil }
        guard document.kind(node) == .int else {
            try mismatch(node, path: object.path.child(name.description), expected: "an integer")
            return nil
        }
        let value = document.int64(node)
        if count, value < 0 {
            try report(at: document.offset(node), path: object.path.child(name.description), "expected a non-negative count, found \(value)")
            return nil
        }
        return Int(value)
    }

    /// Number member `name` (integer or fractional); with `nonNegative`, negative values are a problem.
    mutating func double(_ object: ObjectRef, _ name: StaticString, required: Bool = false, nonNegative: Bool = false) throws(StopDecoding) -> Double? {
        guard let node = try present(object, name, required: required) else { return nil }
        guard document.kind(node) == .int || document.kind(node) == .double else {
            try mismatch(node, path: object.path.child(name.description), expected: "a number")
            return nil
        }
        let value = document.double(node)
        if !value.isFinite {
            try report(at: document.offset(node), path: object.path.child(name.description), "number \(document.preview(node)) is beyond the range of a double")
            return nil
        }
        if nonNegative, value < 0 {
            try report(at: document.offset(node), path: object.path.child(name.description), "expected a non-negative number, found \(document.preview(node))")
            return nil
        }
        return value
    }

    /// Boolean member `name`.
    mutating func bool(_ object: ObjectRef, _ name: StaticString, required: Bool = false) throws(StopDecoding) -> Bool? {
        guard let node = try present(object, name, required: required) else { return nil }
        switch document.kind(node) {
        case .true: return true
        case .false: return false
        default:
            try mismatch(node, path: object.path.child(name.description), expected: "true or false")
            return nil
        }
    }

    /// Id member `name`: a JSON integer, or a string read with ``FeedID/init(parsing:)``.
    mutating func id(_ object: ObjectRef, _ name: StaticString, required: Bool = false) throws(StopDecoding) -> FeedID? {
        guard let node = try present(object, name, required: required) else { return nil }
        switch document.kind(node) {
        case .int: return .int(document.int64(node))
        case .string, .escapedString:
            let text = document.string(node)
            if let flaw = Self.unsafeIDReason(text) {
                try report(at: document.offset(node), path: object.path.child(name.description),
                           "id \(document.preview(node)) \(flaw): ids name files in the roll and in stack output")
                return nil
            }
            return FeedID(parsing: text)
        default:
            try mismatch(node, path: object.path.child(name.description), expected: "an id (integer or string)")
            return nil
        }
    }

    /// Why the string id `text` cannot safely name a file, or nil when it can: empty, `.` or
    /// `..`, a `/` or `\\`, or a control character.
    static func unsafeIDReason(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text == "." || text == ".." { return "is a relative path" }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"): return "contains a path separator"
            case 0x00..<0x20, 0x7F: return "contains a control character"
            default: continue
            }
        }
        return nil
    }

    /// Date member `name` in ISO 8601 (`2025-04-21T21:54:04Z`).
    mutating func date(_ object: ObjectRef, _ name: StaticString) throws(StopDecoding) -> Date? {
        guard let text = try string(object, name) else { return nil }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let node = document.member(name, of: object.node)!
        try report(at: document.offset(node), path: object.path.child(name.description), "expected an ISO 8601 date, found \(document.preview(node))")
        return nil
    }

    /// Warns about every element of array node `array` whose `id` repeats an earlier one.
    mutating func warnDuplicateIDs(in array: Int, parent: String) throws(StopDecoding) {
        guard document.kind(array) == .array else { return }
        // Integer ids (the common case) hash faster as plain Int64 keys.
        var firstInt: [Int64: Int] = [:]
        var firstString: [String: Int] = [:]
        firstInt.reserveCapacity(Int(document.nodes[array].length))
        var index = 0
        var element = array + 1
        let end = Int(document.nodes[array].end)
        while element < end {
            defer {
                element = Int(document.nodes[element].end)
                index += 1
            }
            guard document.kind(element) == .object, let node = document.member("id", of: element) else { continue }
            let first: Int?
            switch document.kind(node) {
            case .int: first = Self.earlier(document.int64(node), index, in: &firstInt)
            case .string, .escapedString:
                switch FeedID(parsing: document.string(node)) {
                case .int(let value): first = Self.earlier(value, index, in: &firstInt)
                case .string(let text): first = Self.earlier(text, index, in: &firstString)
                }
            default: continue
            }
            if let first {
                let path = ItemPath(parent: parent, index: index).child("id")
                let firstPath = ItemPath(parent: parent, index: first).text
                try report(at: document.offset(node), path: path, "duplicate id \(document.preview(node)) (first used by \(firstPath))", severity: .warning)
            }
        }
    }

    // MARK: - Helpers

    /// The index where `key` was first seen, or nil after recording `index` as its first.
    private static func earlier<Key: Hashable>(_ key: Key, _ index: Int, in first: inout [Key: Int]) -> Int? {
        if let seen = first[key] { return seen }
        first[key] = index
        return nil
    }

    /// The value node of member `name` unless it is absent (or null and optional); reports
    /// a missing required member at the object's opening brace.
    mutating func present(_ object: ObjectRef, _ name: StaticString, required: Bool) throws(StopDecoding) -> Int? {
        guard let node = document.member(name, of: object.node) else {
            if required {
                try report(at: document.offset(object.node), path: object.path.child(name.description), "missing required field \"\(name)\"")
            }
            return nil
        }
        // A null optional member is absent; a null required one fails the caller's type check.
        if document.kind(node) == .null, !required { return nil }
        return node
    }

    mutating func mismatch(_ node: Int, path: String, expected: String) throws(StopDecoding) {
        try report(at: document.offset(node), path: path, "expected \(expected), found \(document.preview(node))")
    }
}
