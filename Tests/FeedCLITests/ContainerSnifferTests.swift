import FeedCore
import FeedTestSupport
import Foundation
import Testing

/// ``ContainerSniffer`` on files ffmpeg writes in each container, and on bytes that are none.
@Suite("ContainerSniffer")
struct ContainerSnifferTests {
    @Test("each container ffmpeg writes is named by its first bytes, whatever the file is called; text is none",
          arguments: [("mp4", "mp4", []), ("mov", "mov", []), ("webm", "webm", ["-c:v", "libvpx", "-deadline", "realtime"]),
                      ("matroska", "mkv", []), ("mpegts", "ts", []), ("avi", "avi", []), ("flv", "flv", [])])
    func containers(format: String, expected: String, codec: [String]) async throws {
        let folder = try ScratchFolder()
        // Named .bin: the sniffer reads the bytes, not the name.
        let path = folder.path("clip-\(format).bin")
        let run = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10:duration=0.5"]
                                     + (codec.isEmpty ? ["-c:v", format == "flv" ? "flv" : "mpeg4"] : codec) + ["-f", format, path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(ContainerSniffer.fileExtension(of: path) == expected)
        let text = try folder.write("notes.mp4", "just words, not a video\n")
        #expect(ContainerSniffer.fileExtension(of: text) == nil)
        #expect(ContainerSniffer.fileExtension(of: folder.path("missing")) == nil)
    }
}
