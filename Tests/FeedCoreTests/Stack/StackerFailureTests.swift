import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// Every bad input and output fails with its exit status and leaves no output and no temporary file.
@Suite("Stacker failures", .offThePool)
struct StackerFailureTests {
    static func failure(front: String, back: String, output: String, force: Bool = false, _ configure: (inout StackOptions) -> Void = { _ in }) -> StackError? {
        var options = StackOptions(output: output)
        options.preset = "ultrafast"
        options.force = force
        configure(&options)
        do { _ = try Stacker(front: front, back: back, options: options).run(); return nil } catch { return error }
    }

    @Test("bad inputs: missing 66, everything else 65; nothing left behind",
          arguments: ["missing", "random", "truncated", "hls", "concat", "empty"])
    func badInput(kind: String) throws {
        let folder = try ScratchFolder()
        let good = try NumberedClip.write(folder.path("good.mp4"), frames: 10)
        let bad = folder.path("bad.mp4")
        switch kind {
        case "missing": break
        case "random": try Data((0..<40_000).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: bad))
        case "truncated":
            let data = try Data(contentsOf: URL(fileURLWithPath: good))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: bad))
        case "hls": try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\ngood.mp4\n#EXT-X-ENDLIST\n".write(toFile: bad, atomically: true, encoding: .utf8)
        case "concat": try "ffconcat version 1.0\nfile good.mp4\n".write(toFile: bad, atomically: true, encoding: .utf8)
        default: try Data().write(to: URL(fileURLWithPath: bad))
        }
        let before = folder.contents()

        for (front, back) in [(bad, good), (good, bad)] {
            let error = try #require(Self.failure(front: front, back: back, output: folder.path("out.mp4")))
            #expect(error.kind == (kind == "missing" ? .missingInput : .invalidData))
            #expect(error.description.hasPrefix(bad + ":"))
            #expect(folder.contents() == before)
        }
    }

    @Test("an output folder that is missing or not a folder cannot be created (73)")
    func unwritable() throws {
        let folder = try ScratchFolder()
        let clip = try NumberedClip.write(folder.path("clip.mp4"), frames: 5)

        for output in [folder.path("missing/out.mp4"), clip + "/out.mp4"] {
            let error = Self.failure(front: clip, back: clip, output: output)
            #expect(error?.kind == .cannotCreate, "\(output): \(String(describing: error))")
        }
        #expect(folder.contents() == ["clip.mp4"])
    }

    @Test("an existing output is refused (73) unless force, which replaces it")
    func existing() throws {
        let folder = try ScratchFolder()
        let clip = try NumberedClip.write(folder.path("clip.mp4"), frames: 5)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("out.mp4")))

        #expect(Self.failure(front: clip, back: clip, output: folder.path("out.mp4")) == .outputExists(path: folder.path("out.mp4")))
        #expect(try String(contentsOfFile: folder.path("out.mp4"), encoding: .utf8) == "keep")
        #expect(Self.failure(front: clip, back: clip, output: folder.path("out.mp4"), force: true) == nil)
        #expect(try MediaProbe.probe(path: folder.path("out.mp4")).codedWidth == 64)
        #expect(folder.contents() == ["clip.mp4", "out.mp4"])
    }

    @Test("bad options are usage errors (64)")
    func options() throws {
        let folder = try ScratchFolder()
        let clip = try NumberedClip.write(folder.path("clip.mp4"), frames: 5)
        let cases: [(inout StackOptions) -> Void] = [
            { $0.crf = 60 }, { $0.preset = "warp" }, { $0.fps = 0 }, { $0.width = 1 }, { $0.offset = -5 },
        ]
        for configure in cases {
            #expect(Self.failure(front: clip, back: clip, output: folder.path("out.mp4"), configure)?.kind == .usage)
        }
        #expect(folder.contents() == ["clip.mp4"])
    }
}
