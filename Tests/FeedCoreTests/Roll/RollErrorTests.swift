import Testing
@testable import FeedCore

@Suite struct RollErrorTests {
    @Test("a media failure on a roll file keeps its meaning and exit status")
    func fromMediaError() {
        // A missing file stays a missing file (66).
        let missing = RollError(MediaError.missingFile(path: "/r/a.mp4"), path: "/r/a.mp4")
        #expect(missing == .missingFile(path: "/r/a.mp4"))
        #expect(missing.kind == .missingInput)

        // A broken media layer is not the file's fault: kept as is (70), naming the library.
        let broken = MediaError.unavailable(path: "/r/a.mp4", reason: "cannot load FFmpeg library libavcodec.so.59: gone")
        let unavailable = RollError(broken, path: "/r/a.mp4")
        #expect(unavailable == .media(broken))
        #expect(unavailable.kind == .unavailable)
        #expect(unavailable.description.contains("libavcodec.so.59") && !unavailable.description.contains("not a video"))

        // Anything else: the file is not a playable video (65), with FFmpeg's reason.
        let text = RollError(MediaError.notMedia(path: "/r/a.mp4", reason: "Invalid data found"), path: "/r/a.mp4")
        #expect(text == .notMedia(path: "/r/a.mp4", reason: "Invalid data found"))
        #expect(text.kind == .invalidData)
    }
}
