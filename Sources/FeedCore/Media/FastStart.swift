import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Moves an MP4's `moov` in front of its media without touching the media (qt-faststart's
/// job): the boxes are copied in a new order and every chunk offset in `moov` is shifted by
/// `moov`'s length, so the frames decoded are the same bytes. A player can then start from the
/// file's first bytes instead of asking for its tail first.
public enum FastStart {
    /// What ``write(input:output:replace:)`` did.
    public enum Outcome: String, Sendable, Equatable {
        /// `moov` was after the media and now leads.
        case moved
        /// `moov` already led; the output is a copy.
        case alreadyFastStart = "already"
    }

    /// Writes the fast-start form of `input` to `output`: into a hidden temporary file beside
    /// it, synced, then renamed into place, so a failure or a crash leaves no partial output.
    /// `input` and `output` may be the same file when `replace` is set.
    /// - Throws: ``MediaError/missingFile(path:)``, ``MediaError/notMedia(path:reason:)`` (not an
    ///   MP4/MOV with a `moov`), ``MediaError/refused(path:reason:)`` (a compressed `moov`, 32-bit
    ///   offsets that would overflow), ``MediaError/cannotCreate(path:reason:)`` (output exists
    ///   without `replace`, or its folder cannot be written), ``MediaError/writeFailed(path:reason:)``.
    @discardableResult
    public static func write(input: String, output: String, replace: Bool = false) throws(MediaError) -> Outcome {
        var movie = try MP4Movie.read(path: input)
        if !replace && FileManager.default.fileExists(atPath: output) {
            throw .cannotCreate(path: output, reason: "the file exists (--force replaces it)")
        }
        let outcome: Outcome = movie.layout.index == .end ? .moved : .alreadyFastStart
        try movie.shiftChunkOffsets()
        // A last box may say 0 for "to the end of the file"; moved in front, moov must say its length.
        if outcome == .moved && movie.moov.uint32(at: 0) == 0 { movie.moov.setUInt32(UInt32(movie.moov.count), at: 0) }
        let source = open(input, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw .notMedia(path: input, reason: String(cString: strerror(errno))) }
        defer { close(source) }
        let url = URL(fileURLWithPath: output)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + "." + UUID().uuidString.prefix(8).lowercased() + ".part"
        let target = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard target >= 0 else { throw .cannotCreate(path: output, reason: String(cString: strerror(errno))) }
        var done = false
        defer {
            close(target)
            if !done { unlink(temporary) }
        }
        for box in movie.fastStartOrder {
            if box.type == "moov" && box.offset == movie.layout.moovOffset {
                let written: Result<Void, MediaError> = movie.moov.withUnsafeBytes { bytes in
                    Result { () throws(MediaError) in try writeAll(target, bytes, output) }
                }
                try written.get()
            } else {
                try copy(source, from: box.offset, count: box.length, to: target, input: input, output: output)
            }
        }
        // Bytes after the last box that could be read (a truncated tail) stay where they were.
        let covered = movie.layout.boxes.last?.end ?? 0
        if covered < movie.layout.size {
            try copy(source, from: covered, count: movie.layout.size - covered, to: target, input: input, output: output)
        }
        guard fsync(target) == 0 else { throw .writeFailed(path: output, reason: String(cString: strerror(errno))) }
        do { try DurableFile.rename(URL(fileURLWithPath: temporary), to: url) } catch {
            throw .cannotCreate(path: output, reason: Self.reason(error))
        }
        done = true
        // The new name made durable: best effort, the file is in place either way.
        try? DurableFile.sync(URL(fileURLWithPath: folder))
        return outcome
    }

    /// `count` bytes of `source` from `offset` appended to `target`, a MiB at a time.
    private static func copy(_ source: Int32, from offset: Int64, count: Int64, to target: Int32,
                             input: String, output: String) throws(MediaError) {
        var position = offset, left = count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while left > 0 {
            let n = pread(source, buffer.baseAddress, Int(min(Int64(buffer.count), left)), off_t(position))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .notMedia(path: input, reason: n == 0 ? "ends before its last box" : String(cString: strerror(errno))) }
            try writeAll(target, UnsafeRawBufferPointer(rebasing: buffer[0 ..< n]), output)
            position += Int64(n)
            left -= Int64(n)
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ output: String) throws(MediaError) {
        do { try DurableFile.writeAll(fd, bytes, URL(fileURLWithPath: output)) } catch {
            throw .writeFailed(path: output, reason: reason(error))
        }
    }

    /// A roll error's reason alone (its path is the output's, which the media error names).
    private static func reason(_ error: RollError) -> String {
        if case .io(_, let reason) = error { return reason }
        return error.description
    }

    /// How many leading bytes of the fast-start form of the file at `path` hold its header and
    /// first picture (what the server gives as `preload_bytes`), or nil when it is no MP4/MOV or
    /// its tables do not say.
    public static func preloadBytes(path: String) -> Int64? {
        (try? MP4Movie.read(path: path))?.preloadBytes
    }
}
