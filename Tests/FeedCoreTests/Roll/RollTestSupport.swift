import Foundation
import Testing
@testable import FeedCore

/// A temporary folder, removed when the value goes away.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("roll-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Test clips made with the project's own VideoWriter, and rolls in temporary homes.
enum RollTestSupport {
    /// A roll in a fresh temporary home, with the real FFmpeg prober.
    static func roll(in folder: TemporaryDirectory) throws -> Roll {
        try Roll(paths: RollPaths(home: folder.file("home")), prober: MediaRecordingProber())
    }

    /// Writes an H.264 MP4 of `frames` frames at `fps`, `width`×`height`, whose pixels depend
    /// on `seed` (so clips with different seeds have different bytes).
    @discardableResult
    static func clip(_ url: URL, seed: Int, width: Int = 64, height: Int = 48, frames: Int = 10, fps: Int = 10,
                     rotation: Int = 0) throws -> URL {
        let writer = try VideoWriter(path: url.path, width: width, height: height, fps: Double(fps), rotation: rotation)
        for index in 0..<frames {
            var frame = Frame(width: width, height: height, format: .rgb24, time: Double(index) / Double(fps))
            for y in 0..<height {
                for x in 0..<width {
                    frame.setRGB(x: x, y: y, UInt8(truncatingIfNeeded: x * 4 + seed * 37),
                                 UInt8(truncatingIfNeeded: y * 5 + index * 9), UInt8(truncatingIfNeeded: seed * 91 + 40))
                }
            }
            try writer.append(frame)
        }
        try writer.finish()
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

/// Reads image dimensions from encoded bytes, as a viewer would.
enum ImageHeader {
    /// Width and height from a JPEG's SOF0–SOF3 marker, nil if `bytes` is not a JPEG.
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xC3).contains(marker) {
                return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]))
            }
            i += 2 + length
        }
        return nil
    }

    /// Width and height from a PNG's IHDR chunk, nil if `bytes` is not a PNG.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        let int = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }
}
