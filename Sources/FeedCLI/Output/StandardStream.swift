#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import FeedCore

/// stdout or stderr, written with `write(2)` in whole chunks: no per-field `print`, no stdio buffer
/// that could reorder stdout and stderr.
struct StandardStream: Sendable {
    /// The file descriptor written to.
    let fd: Int32

    /// The process's standard output.
    static let output = StandardStream(fd: STDOUT_FILENO)
    /// The process's standard error: diagnostics and summaries.
    static let error = StandardStream(fd: STDERR_FILENO)

    /// Whether this stream is a terminal.
    var isTerminal: Bool { isatty(fd) == 1 }

    /// Writes every byte, retrying short writes and `EINTR`.
    /// - Throws: `OutputError` when the stream is closed or full.
    func write(_ bytes: [UInt8]) throws(OutputError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    failure = n < 0 ? errno : EIO
                    return
                }
            }
        }
        if failure != 0 {
            throw OutputError(stream: fd == STDERR_FILENO ? "standard error" : "standard output", code: failure)
        }
    }

    /// Writes the UTF-8 bytes of `text`.
    func write(_ text: String) throws(OutputError) {
        try write(Array(text.utf8))
    }
}

/// Writing to stdout or stderr failed (e.g. the disk is full); exit 74.
struct OutputError: FeedFailure {
    /// "standard output" or "standard error".
    var stream: String
    /// The `errno` of the failed write.
    var code: Int32

    var description: String { "cannot write to \(stream): \(String(cString: strerror(code)))" }
    var kind: FailureKind { .io }
}
