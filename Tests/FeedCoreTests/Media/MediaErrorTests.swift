import Foundation
import Testing
import CFFmpeg
@testable import FeedCore
import FeedTestSupport

/// Every kind of bad input fails with the right case and exit status and a message naming the file.
@Suite("MediaError")
struct MediaErrorTests {
    static func open(_ path: String) -> MediaError? {
        do { _ = try MediaReader(path: path); return nil } catch { return error }
    }

    @Test("a missing file is .missingFile, exit 66")
    func missing() {
        let error = Self.open("/nonexistent/clip.mp4")
        #expect(error == .missingFile(path: "/nonexistent/clip.mp4"))
        #expect(error?.kind == .missingInput)
    }

    @Test("bad contents exit 65 with a message naming the file", arguments: ["random", "empty", "truncated", "hls", "concat", "text", "folder", "url"])
    func badInput(kind: String) throws {
        let folder = try ScratchFolder()
        var path = folder.path("bad.mp4")
        switch kind {
        case "random":
            var generator = SystemRandomNumberGenerator()
            try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        case "empty":
            try Data().write(to: URL(fileURLWithPath: path))
        case "truncated":
            try NumberedClip.write(path, frames: 30)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: path))
        case "hls":
            try NumberedClip.write(folder.path("seg.mp4"), frames: 3)
            try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:0.1,\nseg.mp4\n#EXT-X-ENDLIST\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
        case "concat":
            try NumberedClip.write(folder.path("seg.mp4"), frames: 3)
            try "ffconcat version 1.0\nfile seg.mp4\nfile seg.mp4\n".write(toFile: path, atomically: true, encoding: .utf8)
        case "text":
            try String(repeating: "not a video at all\n", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        case "folder":
            path = folder.path
        default:
            path = "http://127.0.0.1:9/clip.mp4"
        }

        let error = try #require(Self.open(path))

        #expect(error.kind == .invalidData)
        #expect(error.description.hasPrefix(path + ":"))
        #expect(!error.description.contains("\n"))
        if kind == "hls" || kind == "concat" || kind == "url" {
            if case .refused = error {} else if case .notMedia = error {} else { Issue.record("unexpected \(error)") }
        }
        if kind == "truncated" { #expect(error.description.contains("truncated")) }
    }

    @Test("an HLS playlist and a concat script are refused before anything is opened")
    func playlistRefused() throws {
        let folder = try ScratchFolder()
        try NumberedClip.write(folder.path("seg.mp4"), frames: 3)
        try "ffconcat version 1.0\nfile seg.mp4\n".write(toFile: folder.path("list.mp4"), atomically: true, encoding: .utf8)

        let error = Self.open(folder.path("list.mp4"))

        guard case .refused(_, let reason) = error else { Issue.record("expected refused, got \(String(describing: error))"); return }
        #expect(reason.contains("concat"))
    }

    @Test("FFmpeg failing to load is .unavailable, exit 70, naming the file and the library")
    func unavailable() {
        let reason = "cannot load FFmpeg library libavcodec.so.59: libavcodec.so.59: cannot open shared object file"
        let error = MediaError.opening("/clips/a.mp4", code: FS_ERR_UNAVAILABLE, detail: reason)
        #expect(error == .unavailable(path: "/clips/a.mp4", reason: reason))
        #expect(error.kind == .unavailable)
        #expect(error.description.hasPrefix("/clips/a.mp4: "))
        #expect(error.description.contains("libavcodec.so.59"))
        #expect(!error.description.contains("\n"))
        // Without a detail the shim's own text is used; FFmpeg is loaded here, so it is generic.
        let bare = MediaError.opening("/clips/a.mp4", code: FS_ERR_UNAVAILABLE, detail: "")
        #expect(bare == .unavailable(path: "/clips/a.mp4", reason: "FFmpeg libraries unavailable"))
    }
}
