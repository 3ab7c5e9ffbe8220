import FeedTestSupport
import Foundation
import Testing

@Suite("feed play --headless")
struct PlayCommandTests {
    /// A feed of five 32x48 clips, each its own picture; clip 3's file is missing.
    private func feed(in folder: ScratchFolder, count: Int = 5, missing: Int? = 3) throws -> String {
        var videos: [String] = []
        for index in 0..<count {
            let path = folder.url.appendingPathComponent("clip\(index).mp4").path
            if index != missing {
                try TestMedia.seededClip(path, seed: index, width: 32, height: 48, frames: 10, fps: 25)
            }
            videos.append(#"{"id": \#(500 + index), "username": "u\#(index)", "video": "\#(URL(fileURLWithPath: path).absoluteString)"}"#)
        }
        return try folder.write("feed.json", #"{"videos": [\#(videos.joined(separator: ","))]}"#)
    }

    private func records(_ run: FeedRun) throws -> [[String: Any]] {
        try run.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
        }
    }

    @Test("a script moves the window: right slots after each move, at most three live, first frames timed")
    func script() async throws {
        let folder = try ScratchFolder()
        let path = try feed(in: folder)

        let run = try await FeedProcess.run(["play", "--headless", "--json", "--feed", path,
                                             "--script", "next,next,prev,pause,seek:+5,next,next,next,to:0"])

        #expect(run.status == 0, "\(run.stderr)")
        let records = try records(run)
        let ids = (0..<5).map { String(500 + $0) }
        // Given the moves, the slots expected after each `moved`: previous, current, next.
        let targets = [0, 1, 2, 1, 2, 3, 4, 0]
        let moves = records.filter { $0["event"] as? String == "moved" }
        #expect(moves.map { $0["position"] as? Int } == targets)
        for (move, target) in zip(moves, targets) {
            let expected: [String?] = [target > 0 ? ids[target - 1] : nil, ids[target], target < 4 ? ids[target + 1] : nil]
            #expect((move["slots"] as? [Any])?.map { $0 as? String } == expected)
        }
        for record in records {
            let live = try #require(record["live"] as? [String])
            #expect(live.count <= 3, "\(record)")
            #expect(Set(live).count == live.count)
        }
        // After each move (but the one to the missing clip) its first frame, timed, then a frame shown.
        for (index, record) in records.enumerated() where record["event"] as? String == "moved" {
            let target = record["position"] as! Int
            let rest = records[(index + 1)...].prefix { $0["event"] as? String != "moved" }
            if target == 3 {
                #expect(!rest.contains { $0["event"] as? String == "first_frame" })
                continue
            }
            let first = try #require(rest.first { $0["event"] as? String == "first_frame" })
            #expect(first["position"] as? Int == target)
            #expect((first["first_frame_ms"] as? Double).map { $0 >= 0 } == true)
            let frame = try #require(rest.first { $0["event"] as? String == "frame" })
            #expect(frame["id"] as? String == ids[target])
            #expect(frame["width"] as? Int == 80 && frame["height"] as? Int == 120, "a 32x48 clip scaled to fit the 200x120 box")
            // Before the next move the window has settled: exactly the playable slots are live.
            // (After the last move the session closes the window, evicting everything.)
            guard index != records.lastIndex(where: { $0["event"] as? String == "moved" }) else { continue }
            let last = try #require(rest.last)
            let slots = ((record["slots"] as? [Any]) ?? []).compactMap { $0 as? String }.filter { $0 != ids[3] }
            #expect(Set(last["live"] as? [String] ?? []) == Set(slots))
        }
        // Moves to a neighbour find it prepared; the start and the jump back to 0 open cold.
        let prepared = records.filter { $0["event"] as? String == "first_frame" }.map { $0["prepared"] as? Bool }
        #expect(prepared == [false, true, true, true, true, true, false])
    }

    @Test("a clip that fails to open is reported and the session goes on")
    func failedClip() async throws {
        let folder = try ScratchFolder()
        let path = try feed(in: folder, count: 3, missing: 1)

        let run = try await FeedProcess.run(["play", "--headless", "--json", "--feed", path, "--script", "next,next"])

        #expect(run.status == 0)
        let records = try records(run)
        let failed = records.filter { $0["event"] as? String == "failed" }
        #expect(failed.first?["id"] as? String == "501")
        #expect((failed.first?["message"] as? String)?.contains("clip1.mp4") == true)
        let frames = records.filter { $0["event"] as? String == "frame" }.map { $0["id"] as? String }
        #expect(frames == ["500", "502"])
    }

    @Test("pause, seek, resume and mute report what they did on the current clip; on a clip that failed to open they are skipped")
    func stepsOnTheClip() async throws {
        let folder = try ScratchFolder()
        let path = try feed(in: folder, count: 3, missing: 1)

        let run = try await FeedProcess.run(["play", "--headless", "--json", "--feed", path,
                                             "--script", "pause,seek:+0.2,resume,seek:-5,mute,mute,next,pause"])

        #expect(run.status == 0, "\(run.stderr)")
        let steps = try records(run).filter {
            ["paused", "resumed", "seeked", "muted", "unmuted", "skipped"].contains($0["event"] as? String ?? "")
        }
        #expect(steps.map { $0["event"] as? String } == ["paused", "seeked", "resumed", "seeked", "muted", "unmuted", "skipped"])
        #expect(steps.map { $0["id"] as? String } == ["500", "500", "500", "500", "500", "500", "501"])
        let times = steps.prefix(4).map { $0["time"] as? Double }
        let paused = try #require(times[0])
        // A 25 fps clip: the seek lands on the frame shown at paused + 0.2 s, and back to the start.
        let seeked = try #require(times[1])
        #expect(seeked > paused + 0.2 - 0.04 - 1e-6 && seeked <= paused + 0.2 + 1e-6, "\(paused) → \(seeked)")
        #expect(times[2] == seeked, "resumed where the seek left it")
        #expect(times[3] == 0, "seek:-5 stops at the start")
        #expect(steps[6]["message"] as? String == "no clip is playing")
        #expect((steps[0]["slots"] as? [Any])?.map { $0 as? String } == [nil, "500", "501"])
    }

    @Test("--wrap goes from the first clip back to the last; without it prev at the start does nothing")
    func wrap() async throws {
        let folder = try ScratchFolder()
        let path = try feed(in: folder, count: 3, missing: nil)

        let wrapped = try await FeedProcess.run(["play", "--headless", "--json", "--wrap", "--feed", path, "--script", "prev"])
        let plain = try await FeedProcess.run(["play", "--headless", "--json", "--feed", path, "--script", "prev"])

        let frames = { (run: FeedRun) in try records(run).filter { $0["event"] as? String == "frame" }.map { $0["id"] as? String } }
        #expect(try frames(wrapped) == ["500", "502"])
        #expect(try frames(plain) == ["500"])
        let start = try #require(try records(wrapped).first)
        #expect((start["slots"] as? [Any])?.map { $0 as? String } == ["502", "500", "501"])
    }

    @Test("an http(s) clip without --allow-network fails saying network reads are not allowed, and the session goes on")
    func networkNeedsTheFlag() async throws {
        // The demo feed's clips are https URLs: nothing is fetched, each is refused before opening.
        let run = try await FeedProcess.run(["play", "--headless", "--json", "--script", "next"])

        #expect(run.status == 0, "\(run.stderr)")
        let failed = try records(run).filter { $0["event"] as? String == "failed" }
        #expect(failed.map { $0["id"] as? String } == ["1235", "1450", "1783"])
        #expect(failed.first?["message"] as? String
            == "https://d2uj5sc6syma2y.cloudfront.net/video/66ac8ea93b90c.mp4: a network URL, and reading from the network was not allowed")
    }

    @Test("a bad script is a usage error naming the step")
    func badScript() async throws {
        let run = try await FeedProcess.run(["play", "--headless", "--json", "--script", "next,jump"])

        #expect(run.status == 64)
        #expect(run.stderr.contains("jump"))
        #expect(run.stdout.isEmpty)
    }

    @Test("--roll plays the camera roll's recordings, newest first")
    func roll() async throws {
        let folder = try ScratchFolder()
        _ = try feed(in: folder, count: 2, missing: nil)
        let home = folder.url.appendingPathComponent("home").path
        let clips = (0..<2).map { folder.url.appendingPathComponent("clip\($0).mp4").path }
        let add = try await FeedProcess.run(["roll", "add"] + clips, environment: ["FEED_HOME": home])
        #expect(add.status == 0, "\(add.stderr)")

        let run = try await FeedProcess.run(["play", "--headless", "--json", "--roll", "--script", "next,like"],
                                            environment: ["FEED_HOME": home])

        #expect(run.status == 0, "\(run.stderr)")
        let records = try records(run)
        let frames = records.filter { $0["event"] as? String == "frame" }.map { $0["id"] as? String }
        #expect(frames == ["2", "1"])
        // Likes belong to feed videos: on a recording the step is reported, not silently dropped.
        let like = records.last { $0["event"] as? String == "failed" }
        #expect(like?["message"] as? String == "likes and bookmarks are for feed videos, not roll recordings")
    }

    @Test("like and bookmark steps are saved and reported; when they cannot be saved they are reported failed, with why")
    func marks() async throws {
        let folder = try ScratchFolder()
        let path = try feed(in: folder, count: 2, missing: nil)
        let home = folder.url.appendingPathComponent("home").path
        let blocked = try folder.write("not-a-folder", "")
        func steps(_ run: FeedRun) throws -> [[String: Any]] {
            try records(run).filter { ["liked", "bookmarked", "failed"].contains($0["event"] as? String ?? "") }
        }

        let saved = try await FeedProcess.run(["play", "--headless", "--json", "--feed", path, "--script", "like,next,bookmark"],
                                              environment: ["FEED_HOME": home])
        let liked = try await FeedProcess.run(["list", "--feed", path, "--liked", "--json"], environment: ["FEED_HOME": home])
        let unsaved = try await FeedProcess.run(["play", "--headless", "--json", "--feed", path, "--script", "like"],
                                                environment: ["FEED_HOME": blocked])

        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try steps(saved).map { "\($0["event"] ?? "") \($0["id"] ?? "")" } == ["liked 500", "bookmarked 501"])
        #expect(liked.lines.count == 1 && liked.lines.first?.contains("\"id\":500") == true, "\(liked.stdout)")
        let failed = try #require(try steps(unsaved).first)
        #expect(failed["event"] as? String == "failed" && failed["id"] as? String == "500")
        #expect((failed["message"] as? String)?.hasPrefix("cannot save the like: ") == true, "\(failed)")
    }

    @Test("--measure-render reports frames drawn and their speed")
    func measureRender() async throws {
        let folder = try ScratchFolder()
        let path = try feed(in: folder, count: 1, missing: nil)

        let run = try await FeedProcess.run(["play", "--headless", "--measure-render", "12", "--terminal", "40x12", "--feed", path])

        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(result["frames"] as? Int == 12)
        #expect(result["width"] as? Int == 16 && result["height"] as? Int == 24, "32x48 fitted into 40x24 pixels")
        #expect((result["fps"] as? Double).map { $0 > 0 } == true)
    }

    @Test("without --headless feed play needs a terminal")
    func needsTerminal() async throws {
        let folder = try ScratchFolder()
        let path = try feed(in: folder, count: 1, missing: nil)

        let run = try await FeedProcess.run(["play", "--feed", path])

        #expect(run.status == 64)
        #expect(run.stderr.contains("--headless"))
        #expect(run.stdout.isEmpty, "nothing is drawn when there is no terminal")
    }
}
