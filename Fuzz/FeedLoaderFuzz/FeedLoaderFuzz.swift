@testable import FeedCore  // JSONParser is internal

/// libFuzzer entry point for the feed loader: bytes → `FeedLoader.load` / `validate`.
///
/// A target of the package (see Package.swift and Fuzz/build.sh); the testable import lets it
/// check internal invariants too. A crash, a trap or an ASan report is a finding; so is
/// a broken invariant, which traps on purpose:
/// - `load` returns a Feed or throws ``FeedError/invalid(_:)`` (never missingFile/unreadable);
/// - `load` fails exactly when `validate` reports an error, and with `validate`'s first error;
/// - every problem's description is one line;
/// - `JSONOutput` of the loaded videos and comments parses back as JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func feedLoaderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // Mostly detect the format; sometimes force one, chosen by the size so each input is stable.
    let formats: [FeedFormat?] = [nil, nil, nil, nil] + FeedFormat.allCases.map { $0 }
    let format = formats[size % formats.count]

    let problems = FeedLoader.validate(bytes: bytes, source: "fuzz.json", format: format)
    for problem in problems {
        check(!problem.description.contains("\n"), "multi-line problem: \(problem.description.debugDescription)")
        check(problem.line >= 1 && problem.column >= 1, "bad position in \(problem)")
    }
    let firstError = problems.first { $0.severity == .error }
    do {
        let feed = try FeedLoader.load(bytes: bytes, source: "fuzz.json", format: format)
        check(firstError == nil, "load succeeded but validate found \(firstError!)")
        check(feed.warnings == problems, "load warnings differ from validate")
        var out = JSONOutput.array(feed.videos)
        out.append(contentsOf: JSONOutput.ndjson(feed.videos).split(separator: UInt8(ascii: "\n")).first ?? [])
        do {
            _ = try JSONParser.parse(JSONOutput.array(feed.videos))
            for comment in feed.comments {
                out.removeAll(keepingCapacity: true)
                JSONOutput.encode(comment, into: &out)
                _ = try JSONParser.parse(out)
            }
        } catch {
            check(false, "JSONOutput wrote invalid JSON: \(error.message)")
        }
    } catch {
        guard case .invalid(let problem) = error else {
            check(false, "unexpected error kind: \(error)")
            return 0
        }
        check(firstError != nil, "load failed with \(problem) but validate found no error")
        check(problem.severity == .error, "load failed with a warning")
    }
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant: " + message()) }
}
