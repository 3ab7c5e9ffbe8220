import Crypto
import FeedTestSupport
import Foundation
import Testing

/// Media for the tests of `feed push`, `feed remote` and FeedClient against a real server.
enum RemoteMedia {
    /// A lossless H.264 clip of moving noise: about 6 MB a second at 640x360, so an upload of it
    /// takes long enough to be cut in the middle.
    static func noise(_ path: String, seconds: Int = 1) async throws -> String {
        let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                                          "testsrc2=size=640x360:rate=25:duration=\(seconds),noise=alls=100:allf=t",
                                                          "-c:v", "libx264", "-preset", "ultrafast", "-crf", "0", path])
        #expect(run.status == 0, "\(run.stderr)")
        return path
    }

    /// A clip with sound (a tone), for stacking: `seconds` long at 160x120.
    static func clip(_ path: String, pattern: String, tone: Int, seconds: Double = 1) async throws -> String {
        let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "\(pattern)=size=160x120:rate=25:duration=\(seconds)",
                                                          "-f", "lavfi", "-i", "sine=frequency=\(tone):duration=\(seconds)",
                                                          "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path])
        #expect(run.status == 0, "\(run.stderr)")
        return path
    }

    /// SHA-256 of a file, lowercase hex.
    static func sha256(_ path: String) throws -> String {
        SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: path))).map { String(format: "%02x", $0) }.joined()
    }

    /// The size of a file.
    static func size(_ path: String) throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? -1
    }
}
