import FeedTestSupport
import Foundation
import Testing

/// A mock feed that names its clips by path, as app developers write them: relative to the
/// feed file (`clips/a.mp4`, `../common/b.mp4`), absolute, and as a `file:` URL.
@Suite("a feed of local clips")
struct LocalClipFeedTests {
    /// The folder: `feed/feed.json`, `feed/clips/a.mp4`, `common/b.mp4`, `common/c d.mp4`.
    private struct Layout {
        let folder: ScratchFolder
        let feed: String
        /// The `video` texts as written in the feed, by id.
        let written: [(id: String, video: String)]
    }

    private func layout() throws -> Layout {
        let folder = try ScratchFolder()
        let root = folder.url.path
        for sub in ["feed/clips", "common"] {
            try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
        }
        _ = try TestMedia.seededClip(root + "/feed/clips/a.mp4", seed: 1, width: 32, height: 48, frames: 10, fps: 25)
        _ = try TestMedia.seededClip(root + "/common/b.mp4", seed: 2, width: 32, height: 48, frames: 10, fps: 25)
        _ = try TestMedia.seededClip(root + "/common/c d.mp4", seed: 3, width: 32, height: 48, frames: 10, fps: 25)
        let written = [
            ("100", "clips/a.mp4"), ("101", "../common/b.mp4"), ("102", root + "/common/c d.mp4"),
            ("103", URL(fileURLWithPath: root + "/common/c d.mp4").absoluteString),
        ]
        let videos = written.map { #"{"id": \#($0.0), "username": "u", "video": "\#($0.1)"}"# }
        let feed = try folder.write("feed/feed.json", #"{"videos": [\#(videos.joined(separator: ",\n"))]}"#)
        return Layout(folder: folder, feed: feed, written: written)
    }

    private func events(_ run: FeedRun, _ name: String) throws -> [[String: Any]] {
        try run.lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == name }
    }

    @Test("relative and absolute clip paths list as written, validate, and play from anywhere")
    func listsValidatesAndPlays() async throws {
        let layout = try layout()
        // Run from another folder: paths are taken from the feed file's folder, not the current one.
        let elsewhere = layout.folder.url.appendingPathComponent("common")

        let list = try await FeedProcess.run(["list", "--feed", layout.feed, "--json"], currentDirectory: elsewhere)
        let show = try await FeedProcess.run(["show", "101", "--feed", layout.feed], currentDirectory: elsewhere)
        let validate = try await FeedProcess.run(["validate", layout.feed])
        let play = try await FeedProcess.run(["play", "--headless", "--json", "--feed", "../feed/feed.json", "--script", "next,next,next"],
                                             currentDirectory: elsewhere)

        #expect(list.status == 0, "\(list.stderr)")
        #expect(try list.objects().map { $0["video"] as? String } == layout.written.map(\.video))
        #expect(show.lines.contains("video:           ../common/b.mp4"), "\(show.stdout)")
        #expect(validate.status == 0 && validate.stdout.isEmpty, "\(validate.stdout)")
        #expect(play.status == 0, "\(play.stderr)")
        #expect(try events(play, "failed").isEmpty, "\(play.stdout)")
        #expect(try events(play, "frame").map { $0["id"] as? String } == ["100", "101", "102", "103"])
    }

    @Test("validate --urls turns every path into an error that says a URL is expected, exit 65")
    func validateURLs() async throws {
        let layout = try layout()

        let run = try await FeedProcess.run(["validate", "--urls", layout.feed])

        #expect(run.status == 65)
        // The three paths are errors; the file: URL is fine.
        #expect(run.lines.count == 3, "\(run.stdout)")
        for (index, line) in run.lines.enumerated() {
            let video = layout.written[index].video
            // Messages quote at most 40 characters of a value.
            let quoted = video.count > 40 ? String(video.prefix(40)) + "…" : video
            #expect(line.hasPrefix(layout.feed + ":"))
            #expect(line.hasSuffix(#"videos[\#(index)].video: expected an absolute URL (https://…, file:///…), found the file path "\#(quoted)""#), "\(line)")
        }
        #expect(run.stderr.contains("3 errors"), "\(run.stderr)")
    }

    @Test("a feed on standard input takes its paths from the current folder")
    func standardInput() async throws {
        let layout = try layout()
        let text = try Data(contentsOf: URL(fileURLWithPath: layout.feed))
        let home = layout.folder.url.appendingPathComponent("feed")

        let here = try await FeedProcess.run(["play", "--headless", "--json", "--feed", "-", "--script", "next"], stdin: text, currentDirectory: home)
        let there = try await FeedProcess.run(["play", "--headless", "--json", "--feed", "-", "--script", "next"], stdin: text,
                                              currentDirectory: layout.folder.url)

        #expect(try events(here, "frame").map { $0["id"] as? String } == ["100", "101"])
        let failed = try #require(try events(there, "failed").first)
        #expect(failed["id"] as? String == "100")
        #expect(failed["message"] as? String == "\(layout.folder.url.path)/clips/a.mp4: no such file")
    }
}
