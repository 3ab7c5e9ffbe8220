import Foundation
import Logging

/// The server's log handler: each message one line on stderr, after a fixed prefix (`feed serve: `
/// for lifecycle and job lines, none for the access log), metadata left out: the format people
/// read and scripts grep. A library user who wants JSON or a collector passes a ``Logger`` of
/// their own instead (``ServerConfiguration/logger``).
struct LineLogHandler: LogHandler {
    /// Written before every message.
    let prefix: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
             function: String, line: UInt) {
        FileHandle.standardError.write(Data("\(prefix)\(message)\n".utf8))
    }

    /// A logger of `label` through this handler, at `level`.
    static func logger(_ label: String, prefix: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { _ in LineLogHandler(prefix: prefix) }
        logger.logLevel = level
        return logger
    }
}
