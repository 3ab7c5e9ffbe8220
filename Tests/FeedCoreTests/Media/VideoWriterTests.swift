import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

@Suite("VideoWriter", .offThePool)
struct VideoWriterTests {
    @Test("finish renames the temporary file onto the path; nothing else is left")
    func finish() throws {
        let folder = try ScratchFolder()
        let writer = try VideoWriter(path: folder.path("out.mp4"), width: 32, height: 32, fps: 25)
        #expect(folder.contents().count == 1 && folder.contents()[0].hasSuffix(".part"))

        for i in 0..<5 { try writer.append(Frame(width: 32, height: 32, format: .yuv420p, time: Double(i) / 25)) }
        try writer.finish()

        #expect(folder.contents() == ["out.mp4"])
        #expect(try MediaProbe.probe(path: folder.path("out.mp4")).codedWidth == 32)
    }

    @Test("an unfinished writer removes its temporary file")
    func abandoned() throws {
        let folder = try ScratchFolder()
        do {
            let writer = try VideoWriter(path: folder.path("out.mp4"), width: 32, height: 32, fps: 25)
            try writer.append(Frame(width: 32, height: 32, format: .rgb24))
        }
        #expect(folder.contents().isEmpty)
    }

    @Test("an existing file is refused unless replace, a missing or read-only folder cannot be created (73)")
    func cannotCreate() throws {
        let folder = try ScratchFolder()
        try Data([1]).write(to: URL(fileURLWithPath: folder.path("exists.mp4")))
        try FileManager.default.createDirectory(atPath: folder.path("ro"), withIntermediateDirectories: false)
        chmod(folder.path("ro"), 0o555)
        defer { chmod(folder.path("ro"), 0o755) }

        for path in [folder.path("exists.mp4"), folder.path("missing/out.mp4"), folder.path("ro/out.mp4")] {
            if path.hasSuffix("ro/out.mp4") && getuid() == 0 { continue } // root writes anywhere
            #expect(throws: MediaError.self) { try VideoWriter(path: path, width: 32, height: 32, fps: 25) }
            do { _ = try VideoWriter(path: path, width: 32, height: 32, fps: 25) } catch { #expect(error.kind == .cannotCreate) }
        }
        _ = try VideoWriter(path: folder.path("exists.mp4"), width: 32, height: 32, fps: 25, replace: true)
        #expect(folder.contents() == ["exists.mp4", "ro"])
    }

    @Test("a file made at the path while the writer ran is kept: finish throws cannotCreate and leaves no temporary file; with replace it is replaced")
    func nameTakenMeanwhile() throws {
        let folder = try ScratchFolder()
        for replace in [false, true] {
            let path = folder.path("out-\(replace).mp4")
            let writer = try VideoWriter(path: path, width: 32, height: 32, fps: 25, replace: replace)
            for i in 0..<5 { try writer.append(Frame(width: 32, height: 32, format: .yuv420p, time: Double(i) / 25)) }
            // Another writer (another `feed stack -o` to the same name) finished first.
            try Data("the other one".utf8).write(to: URL(fileURLWithPath: path))
            if replace {
                try writer.finish()
                #expect(try MediaProbe.probe(path: path).codedWidth == 32)
            } else {
                do {
                    try writer.finish()
                    Issue.record("finish replaced a file made meanwhile")
                } catch {
                    #expect(error.kind == .cannotCreate && error.description.contains("made while this one was written"), "\(error)")
                }
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("the other one".utf8))
            }
        }
        #expect(folder.contents().filter { $0.hasSuffix(".part") }.isEmpty, "\(folder.contents())")
    }

    @Test("two stacks given the same default name in the same second: the one that finishes second takes the next free name; the first's file is kept")
    func defaultNameTakenMeanwhile() throws {
        let folder = try ScratchFolder()
        let path = folder.path("stacked-20261129-010203.mp4")
        let writers = try (0..<2).map { _ in
            try VideoWriter(path: path, width: 32, height: 32, fps: 25, nextName: StackOptions.nextDefaultName(after:))
        }
        for (index, writer) in writers.enumerated() {
            for i in 0..<(5 + index) { try writer.append(Frame(width: 32, height: 32, format: .yuv420p, time: Double(i) / 25)) }
        }
        try writers[0].finish()
        try writers[1].finish()
        #expect(writers.map(\.path) == [path, folder.path("stacked-20261129-010203-2.mp4")])
        let durations = try writers.map { try MediaProbe.probe(path: $0.path).duration }
        #expect(durations[0] < durations[1], "each file is its own writer's (5 and 6 frames): \(durations)")
        #expect(folder.contents() == ["stacked-20261129-010203-2.mp4", "stacked-20261129-010203.mp4"])
        // Made after both: it starts at the next free name.
        let third = try VideoWriter(path: path, width: 32, height: 32, fps: 25, nextName: StackOptions.nextDefaultName(after:))
        #expect(third.path == folder.path("stacked-20261129-010203-3.mp4"))
    }

    @Test("bad settings and out-of-order or mis-sized frames are write failures")
    func badUse() throws {
        let folder = try ScratchFolder()
        #expect(throws: MediaError.self) { try VideoWriter(path: folder.path("odd.mp4"), width: 33, height: 32, fps: 25) }
        let writer = try VideoWriter(path: folder.path("out.mp4"), width: 32, height: 32, fps: 25)
        try writer.append(Frame(width: 32, height: 32, format: .rgb24, time: 0.1))

        #expect(throws: MediaError.self) { try writer.append(Frame(width: 32, height: 32, format: .rgb24, time: 0.1)) }
        #expect(throws: MediaError.self) { try writer.append(Frame(width: 16, height: 32, format: .rgb24, time: 0.2)) }
        #expect(throws: MediaError.self) { try writer.appendAudio([0, 0]) }
    }

    @Test("fractional frame rates become exact fractions")
    func rational() {
        #expect(VideoWriter.rational(30) == (30, 1))
        #expect(VideoWriter.rational(30000.0 / 1001) == (30000, 1001))
        #expect(VideoWriter.rational(12.5) == (12500, 1000))
    }
}
