import Foundation
import FeedTestSupport
import Testing
@testable import FeedCore
import FeedSQLite

/// Test clips made with the project's own VideoWriter, and rolls in temporary homes.
enum RollTestSupport {
    /// A roll in a fresh temporary home, with the real FFmpeg prober.
    static func roll(in folder: ScratchFolder) throws -> Roll {
        try Roll(paths: RollPaths(home: folder.url("home")), prober: MediaRecordingProber())
    }

    /// A seeded test clip at `url` (see `TestMedia.seededClip`).
    @discardableResult
    static func clip(_ url: URL, seed: Int, width: Int = 64, height: Int = 48, frames: Int = 10, fps: Int = 10,
                     rotation: Int = 0) throws -> URL {
        try TestMedia.seededClip(url.path, seed: seed, width: width, height: height, frames: frames, fps: fps, rotation: rotation)
        return url
    }

    /// Names of the visible files in `recordings/`.
    static func storedFiles(_ roll: Roll) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: roll.paths.recordings.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Names in a hidden folder of `recordings/`.
    static func contents(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }
}
