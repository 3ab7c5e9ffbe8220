import FeedCore
import Foundation

/// Whether a runner can do jobs at all: what is its own, not a job's. A job that fails for a
/// reason of the machine (its media elsewhere than the roll's, a bucket it cannot reach, a full
/// or read-only disk, no FFmpeg) would fail on this runner whatever it is, so the runner stops
/// claiming instead of failing the whole queue (``JobRunner``).
struct RunnerSelfCheck: Sendable {
    let roll: Roll
    /// The runner's scratch folder, which its outputs are written to.
    let scratch: URL

    /// Nil when the runner can work; else why not, in words. Blocking: run it off the
    /// concurrency pool.
    func problem() async -> String? {
        if let ffmpeg = MediaSupport.problem() { return "FFmpeg is not usable here: \(ffmpeg)" }
        let media = roll.media
        // Where recordings are, as listings name them: a folder, or s3://BUCKET/PREFIX/recordings.
        let probe = media.address(of: .recording("x"))
        let place = String(probe[..<(probe.lastIndex(of: "/") ?? probe.endIndex)])
        do throws(RollError) { try media.checkReachable() } catch {
            return "its media (\(place)) does not answer: \(error.description)"
        }
        // A roll with recordings none of which this runner finds: it looks in the wrong place.
        if let newest = try? await roll.recordings(limit: 3), !newest.isEmpty,
           !newest.contains(where: { media.exists(.recording($0.fileName)) }) {
            return "none of the roll's newest recordings is in its media (\(place)): "
                + "is --media (or FEED_HOME) the one the catalog's other machines use?"
        }
        return writable()
    }

    /// Nil when a file can be written to the scratch folder and removed; else why not.
    private func writable() -> String? {
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            return "cannot make its scratch folder \(scratch.path): \(error.localizedDescription)"
        }
        let probe = scratch.appendingPathComponent(".check-\(UUID().uuidString.prefix(8))")
        let fd = open(probe.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "cannot write in its scratch folder \(scratch.path): \(String(cString: strerror(errno)))" }
        defer { close(fd); unlink(probe.path) }
        // A block's worth, flushed: a full disk refuses it (an empty file would still be made).
        let block = [UInt8](repeating: 0, count: 4096)
        let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == block.count, fsync(fd) == 0 else {
            return "cannot write in its scratch folder \(scratch.path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
