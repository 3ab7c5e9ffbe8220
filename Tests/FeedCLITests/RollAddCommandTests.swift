import FeedTestSupport
import Foundation
import Testing

@Suite("feed roll add")
struct RollAddCommandTests {
    @Test("adds several files, prints them; the originals stay; --move takes the original")
    func add() async throws {
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1), b = try home.clip("b.mp4", seed: 2), c = try home.clip("c.mp4", seed: 3)
        let run = try await home.run(["roll", "add", a, b, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.objects().compactMap { $0["original_path"] as? String } == [a, b])
        #expect(FileManager.default.fileExists(atPath: a))
        let moved = try await home.run(["roll", "add", "--move", c])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(!FileManager.default.fileExists(atPath: c))
        #expect(try await home.rows().count == 3 && home.storedFiles().count == 3)
    }

    @Test("--title with several files needs {name}: without it exit 64 and nothing added; with it each file's own title")
    func titles() async throws {
        let home = try RollHome()
        let a = try home.clip("beach.mp4", seed: 1), b = try home.clip("dinner.mp4", seed: 2), c = try home.clip("solo.mp4", seed: 3)

        let same = try await home.run(["roll", "add", a, b, "--title", "Trip"])
        #expect(same.status == 64)
        #expect(same.stderr.contains("--title") && same.stderr.contains("{name}"), "\(same.stderr)")
        #expect(try await home.rows().isEmpty)

        let templated = try await home.run(["roll", "add", a, b, "--title", "Trip: {name}", "--json"])
        #expect(templated.status == 0, "\(templated.stderr)")
        #expect(try templated.objects().compactMap { $0["title"] as? String } == ["Trip: beach", "Trip: dinner"])

        let single = try await home.run(["roll", "add", c, "--title", "Just one", "--json"])
        #expect(try single.objects().first?["title"] as? String == "Just one")
    }

    @Test("the roll's table shows whole file names; in a terminal only the title is cut")
    func table() async throws {
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1)
        let long = "A title long enough that no hundred-column terminal can show it whole beside the other columns of the roll"
        #expect(try await home.run(["roll", "add", a, "--title", long]).status == 0)
        let file = try #require(home.storedFiles().first)

        let piped = try await home.run(["roll", "list"])
        #expect(piped.lines.count == 2 && piped.lines[1].hasSuffix(file + "  " + long), "\(piped.stdout)")

        let terminal = try await FeedProcess.runInTerminal(["roll", "list"], columns: 100, environment: home.environment)
        #expect(terminal.lines.count == 2, "\(terminal.stdout)")
        #expect(terminal.lines[1].contains(file + "  ") && terminal.lines[1].hasSuffix("…") && terminal.lines[1].count == 100,
                "\(terminal.stdout)")
    }

    @Test("a non-video: exit 65 naming it, nothing added")
    func nonMedia() async throws {
        let home = try RollHome()
        let good = try home.clip("good.mp4", seed: 1)
        let text = try home.folder.write("notes.mov", "definitely not a video\n")
        let run = try await home.run(["roll", "add", good, text])
        #expect(run.status == 65)
        #expect(run.stderr.contains(text) && run.stderr.contains("not a video"))
        #expect(try await home.rows().isEmpty && home.storedFiles().isEmpty)
    }

    @Test("a missing file exits 66; the same content twice exits 65 unless --allow-duplicate")
    func missingAndDuplicate() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.folder.url.appendingPathComponent("nope.mp4").path]).status == 66)
        let a = try home.clip("a.mp4", seed: 1)
        #expect(try await home.run(["roll", "add", a]).status == 0)
        let again = try await home.run(["roll", "add", a])
        #expect(again.status == 65)
        #expect(again.stderr.contains("same content as recording"))
        #expect(try await home.run(["roll", "add", "--allow-duplicate", a]).status == 0)
        #expect(try await home.rows().count == 2)
    }

    @Test("two processes each adding 50 distinct clips at once: all 100 rows and files")
    func twoProcesses() async throws {
        let home = try RollHome()
        var batches: [[String]] = [[], []]
        for index in 0..<100 { batches[index % 2].append(try home.clip("c\(index).mp4", seed: index, width: 16, height: 16, frames: 2)) }
        var statuses: [Int32] = []
        let processes = [try await home.spawn(["roll", "add"] + batches[0]), try await home.spawn(["roll", "add"] + batches[1])]
        for process in processes { statuses.append(await process.exitStatus()) }
        #expect(statuses == [0, 0])
        let rows = try await home.rows()
        #expect(rows.count == 100)
        #expect(Set(rows.compactMap { $0["original_path"] as? String }) == Set(batches.flatMap { $0 }))
        #expect(home.storedFiles().count == 100)
        #expect(try await home.run(["roll", "verify"]).status == 0)
    }
}
