import Foundation

/// A live stream's recording while it is live: `recordings/.live/<id>.fmp4`, the init segment
/// and then every part exactly as players got them (CMAF fragments), appended as each part
/// closes. A publisher that reconnects within the window goes on appending to the same file (the
/// packager's timeline goes on too), and once the stream ends ``FragmentedMP4Flattener`` makes
/// it a progressive MP4 for the roll (``LiveRecordings``).
///
/// The file is held with an exclusive `flock(2)` while its stream is live, by the one server
/// that ingests it: a second server (sharing the media folder) cannot open it, and a file whose
/// lock can be taken belongs to a server that stopped or died (``isAbandoned(_:)``). A kill -9
/// keeps every part written (the kernel has the bytes; a machine crash keeps what was synced at
/// the last segment), so the recording holds everything up to the last complete part.
public final class LiveRecordingFile: @unchecked Sendable {
    /// The file.
    public let url: URL
    /// The stream it records.
    public let streamID: Int64
    // Written only by the stream's channel, under its lock.
    private var fd: Int32
    private var unsynced = 0

    /// Where stream `id`'s recording is while live.
    public static func url(of id: Int64, in paths: RollPaths) -> URL {
        paths.live.appendingPathComponent("\(id).fmp4")
    }

    /// Opens (creating, unless `existing`) stream `id`'s recording for appending and locks it.
    /// - Returns: nil when another process (or another open here) holds it (the stream is live
    ///   or being finished elsewhere), or when `existing` and there is none.
    /// - Throws: ``LiveRecordingError/cannotWrite(path:reason:)`` when it cannot be created.
    public static func open(stream id: Int64, in paths: RollPaths, existing: Bool = false) throws(LiveRecordingError) -> LiveRecordingFile? {
        let url = url(of: id, in: paths)
        do { try FileManager.default.createDirectory(at: paths.live, withIntermediateDirectories: true) } catch {
            throw .cannotWrite(path: paths.live.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let fd = Glibc.open(url.path, O_WRONLY | O_APPEND | O_CLOEXEC | (existing ? 0 : O_CREAT), 0o644)
        if fd < 0 && existing && errno == ENOENT { return nil }
        guard fd >= 0 else { throw .cannotWrite(path: url.path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(fd)
            return nil
        }
        return LiveRecordingFile(url: url, streamID: id, fd: fd)
    }

    private init(url: URL, streamID: Int64, fd: Int32) {
        self.url = url
        self.streamID = streamID
        self.fd = fd
    }

    deinit { close() }

    /// Appends `bytes` (the init segment, or a part): whole, or the error says what went wrong.
    /// Synced every 4 MiB, so a machine crash loses little.
    public func append(_ bytes: [UInt8]) throws(LiveRecordingError) {
        guard fd >= 0 else { throw .cannotWrite(path: url.path, reason: "closed") }
        let failure: RollError? = bytes.withUnsafeBytes { buffer in
            do throws(RollError) { try DurableFile.writeAll(fd, buffer, url) } catch { return error }
            return nil
        }
        if let failure { throw .writing(url.path, failure) }
        unsynced += bytes.count
        if unsynced >= 4 << 20 {
            fsync(fd)
            unsynced = 0
        }
    }

    /// Syncs and closes the file, letting go of its lock (idempotent).
    public func close() {
        guard fd >= 0 else { return }
        fsync(fd)
        flock(fd, LOCK_UN)
        Glibc.close(fd)
        fd = -1
    }

    /// The ids of recordings in `paths`' live folder that nobody holds: their server ended them
    /// without finishing (a stop) or died. Each is for ``LiveRecordings/finish(_:)``.
    public static func abandoned(in paths: RollPaths) -> [Int64] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.live.path)) ?? []
        return names.compactMap { name -> Int64? in
            guard name.hasSuffix(".fmp4"), let id = Int64(name.dropLast(5)), id > 0 else { return nil }
            return isAbandoned(url(of: id, in: paths)) ? id : nil
        }.sorted()
    }

    /// Whether `url` exists and no process holds its lock.
    public static func isAbandoned(_ url: URL) -> Bool {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(fd, LOCK_UN)
        return true
    }
}
