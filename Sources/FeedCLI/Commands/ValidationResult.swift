import FeedCore
import FeedRemote
import Foundation

/// What `validate` found in one file: its problems, or why it could not be read.
struct ValidationResult {
    /// The path as given.
    var file: String
    /// Every problem, errors and warnings, in file order.
    var problems: [FeedProblem]
    /// Why the file could not be checked at all (missing, unreadable, a URL without
    /// --allow-network or that could not be fetched).
    var failure: (any FeedFailure)?

    /// True when the file was read and has no errors (warnings allowed).
    var ok: Bool { failure == nil && !problems.contains { $0.severity == .error } }

    /// Checks one file ('-' is standard input) fully, never throwing; without `allowingPaths`,
    /// media named by a file path are errors.
    static func check(_ file: String, format: FeedFormat?, allowingPaths: Bool = true) -> ValidationResult {
        if file == "-" {
            let bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
            return ValidationResult(file: file, problems: FeedLoader.validate(bytes: bytes, source: "<stdin>", format: format,
                                                                              allowingPaths: allowingPaths))
        }
        do {
            return ValidationResult(file: file, problems: try FeedLoader.validate(path: file, format: format, allowingPaths: allowingPaths))
        } catch {
            return ValidationResult(file: file, problems: [], failure: error)
        }
    }

    /// Checks one file or, when `file` is an http(s) URL, the feed at that URL (only with
    /// `allowNetwork`), never throwing.
    static func check(_ file: String, format: FeedFormat?, allowingPaths: Bool = true, allowNetwork: Bool) async -> ValidationResult {
        guard let url = RemoteFeed.url(file) else { return check(file, format: format, allowingPaths: allowingPaths) }
        guard allowNetwork else { return ValidationResult(file: file, problems: [], failure: RemoteError.networkNotAllowed(url: file)) }
        do {
            return ValidationResult(file: file, problems: try await RemoteFeed.validate(url, format: format, allowingPaths: allowingPaths))
        } catch {
            return ValidationResult(file: file, problems: [], failure: error)
        }
    }

    /// The exit status for all results: the first unreadable file's (66, 74), else 65 when any
    /// file has an error, else 0.
    static func exitStatus(_ results: [ValidationResult]) -> ExitStatus {
        if let failure = results.lazy.compactMap(\.failure).first { return ExitStatus(failure.kind) }
        return results.allSatisfy(\.ok) ? .ok : .dataError
    }
}
