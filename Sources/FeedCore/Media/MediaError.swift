import CFFmpeg
import Foundation

/// Why opening, decoding or writing media failed. Each case names the file and carries FFmpeg's own reason.
public enum MediaError: FeedFailure, Equatable {
    /// The input file does not exist.
    case missingFile(path: String)
    /// The file exists but may not be read (permissions), or a URL's server cannot be reached or
    /// says nothing: an I/O failure, not bad data.
    case unreadable(path: String, reason: String)
    /// The file is not a media file FFmpeg can open (or is truncated); `reason` is FFmpeg's message.
    case notMedia(path: String, reason: String)
    /// The file opens but has no video stream.
    case noVideoStream(path: String)
    /// A frame could not be decoded.
    case decodeFailed(path: String, reason: String)
    /// The input is of a kind feed refuses: a playlist, concat script, URL, or a picture over the pixel limit.
    case refused(path: String, reason: String)
    /// The input is a network URL and the caller did not allow reading from the network.
    case networkNotAllowed(path: String)
    /// The output file cannot be created (folder missing or unwritable, file exists).
    case cannotCreate(path: String, reason: String)
    /// Encoding or writing the output failed.
    case writeFailed(path: String, reason: String)
    /// FFmpeg's libraries (loaded at first use) cannot be loaded; `reason` names the library and the loader's message.
    case unavailable(path: String, reason: String)
    /// The work on this file was stopped (a signal, or the caller's cancellation); nothing was left.
    case interrupted(path: String)

    public var kind: FailureKind {
        switch self {
        case .missingFile: .missingInput
        case .networkNotAllowed: .usage
        case .notMedia, .noVideoStream, .decodeFailed, .refused: .invalidData
        case .cannotCreate: .cannotCreate
        case .writeFailed, .unreadable: .io
        case .unavailable: .unavailable
        case .interrupted: .interrupted
        }
    }

    public var description: String {
        switch self {
        case .missingFile(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
        case .notMedia(let path, let reason): "\(path): not a readable media file: \(reason)"
        case .noVideoStream(let path): "\(path): has no video stream"
        case .decodeFailed(let path, let reason): "\(path): cannot decode: \(reason)"
        case .refused(let path, let reason): "\(path): refused: \(reason)"
        case .networkNotAllowed(let path): "\(path): a network URL, and reading from the network was not allowed"
        case .cannotCreate(let path, let reason): "\(path): cannot create: \(reason)"
        case .writeFailed(let path, let reason): "\(path): cannot write: \(reason)"
        case .unavailable(let path, let reason): "\(path): media support is not installed: \(reason)"
        case .interrupted(let path): "\(path): interrupted; no output was left"
        }
    }

    /// The text of a shim result code.
    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        fs_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Maps a failed reader open to the matching case; `detail` is the shim's one-line reason.
    static func opening(_ path: String, code: Int32, detail: String) -> MediaError {
        let reason = detail.isEmpty ? text(code) : detail
        switch code {
        case FS_ERR_NOENT: return .missingFile(path: path)
        // FFmpeg's AVERROR(e) is -e: the file is there, and this process may not open it.
        case -EACCES, -EPERM: return .unreadable(path: path, reason: reason)
        // A URL whose server cannot be reached, resets, or says nothing (the shim's read timeout):
        // the network failed, not the data (74, as feed's own downloads).
        case -ETIMEDOUT, -ECONNREFUSED, -ECONNRESET, -EHOSTUNREACH, -ENETUNREACH, -EPIPE:
            return .unreadable(path: path, reason: reason)
        case FS_ERR_REFUSED, FS_ERR_TOO_LARGE: return .refused(path: path, reason: reason)
        case FS_ERR_NO_VIDEO: return .noVideoStream(path: path)
        case FS_ERR_UNAVAILABLE: return .unavailable(path: path, reason: reason)
        default: return .notMedia(path: path, reason: reason)
        }
    }

    /// Maps a failure while decoding.
    static func decoding(_ path: String, code: Int32) -> MediaError {
        var message = [CChar](repeating: 0, count: 512)
        fs_last_message(&message, message.count)
        let extra = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let reason = extra.isEmpty ? text(code) : "\(text(code)) (\(extra))"
        return code == FS_ERR_TOO_LARGE ? .refused(path: path, reason: reason) : .decodeFailed(path: path, reason: reason)
    }
}

extension Array where Element == CChar {
    /// The NUL-terminated C string in a buffer the shim filled.
    var cText: String { String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
}
