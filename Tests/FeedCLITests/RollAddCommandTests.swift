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
extension RollAddCommandTests {
    @Test("a batch with a file already in the roll: the others are added, every file is reported, exit 65, never 'nothing was added'")
    func batchWithDuplicate() async throws {
        // Given a roll holding a.mp4, and a batch of b, a copy of a, c.
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1), b = try home.clip("b.mp4", seed: 2), c = try home.clip("c.mp4", seed: 3)
        let dup = home.folder.url.appendingPathComponent("dup.mp4").path
        try FileManager.default.copyItem(atPath: a, toPath: dup)
        try #require(try await home.run(["roll", "add", a]).status == 0)

        // When the batch is added.
        let run = try await home.run(["roll", "add", b, dup, c])

        // Then b and c are added and listed, and stderr says what became of each file.
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.lines.count == 3 && run.lines[1].hasPrefix(" 2 ") && run.lines[2].hasPrefix(" 3 "), "\(run.stdout)")
        #expect(run.stderr == """
            \(b): added as #2
            \(dup): same content as recording 1; skipped
            \(c): added as #3
            feed: added 2 of 3 files; 1 skipped as already in the roll (use --allow-duplicate to add it anyway)

            """, "\(run.stderr)")
        #expect(!run.stderr.contains("nothing was added"))
        #expect(try await home.rows().compactMap { $0["original_path"] as? String }.sorted() == [a, b, c].sorted())
        #expect(home.storedFiles().count == 3 && home.hidden(".incoming").isEmpty)
    }

    @Test("--json and --ndjson give one object per file with its outcome; all duplicates: 'nothing was added', exit 65")
    func batchOutcomesAsJSON() async throws {
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1), b = try home.clip("b.mp4", seed: 2)
        let dup = home.folder.url.appendingPathComponent("dup.mp4").path
        try FileManager.default.copyItem(atPath: a, toPath: dup)
        try #require(try await home.run(["roll", "add", a]).status == 0)

        let json = try await home.run(["roll", "add", b, dup, "--json"])
        #expect(json.status == 65)
        let objects = try json.objects()
        #expect(objects.count == 2, "\(json.stdout)")
        #expect(objects.first?["outcome"] as? String == "added" && objects.first?["id"] as? Int == 2)
        #expect(objects.first?["original_path"] as? String == b && objects.first?["sha256"] is String)
        #expect(objects.last?["outcome"] as? String == "duplicate" && objects.last?["duplicate_of"] as? Int == 1)
        #expect(objects.last?["original_path"] as? String == dup && objects.last?["id"] == nil)
        #expect(json.stderr == "feed: added 1 of 2 files; 1 skipped as already in the roll (use --allow-duplicate to add it anyway)\n")

        // Every file already in: nothing was added, and that is said.
        let again = try await home.run(["roll", "add", a, b, "--ndjson"])
        #expect(again.status == 65)
        let lines = try again.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.compactMap { $0["duplicate_of"] as? Int } == [1, 2], "\(again.stdout)")
        #expect(again.stderr == "feed: nothing was added: all 2 files are already in the roll (use --allow-duplicate to add them anyway)\n")
        #expect(try await home.rows().count == 2)
    }

    @Test("--allow-duplicate adds the whole batch, duplicates included, exit 0; the same bytes twice in one batch is a duplicate without it")
    func batchAllowingDuplicates() async throws {
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1)
        let twin = home.folder.url.appendingPathComponent("twin.mp4").path
        try FileManager.default.copyItem(atPath: a, toPath: twin)

        let refused = try await home.run(["roll", "add", a, twin])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("\(twin): same content as recording 1; skipped\n"), "\(refused.stderr)")
        #expect(try await home.rows().count == 1)

        let allowed = try await home.run(["roll", "add", "--allow-duplicate", a, twin])
        #expect(allowed.status == 0 && allowed.stderr.isEmpty, "\(allowed.stderr)")
        #expect(allowed.lines.count == 3)
        #expect(try await home.rows().count == 3)
    }

    @Test("--help documents the exit statuses of a batch")
    func helpDocumentsExitStatus() async throws {
        let help = try await FeedProcess.run(["roll", "add", "--help"])
        #expect(help.status == 0)
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Exit status: 0 every file was added; 65") && words.contains("skipped as a duplicate (the others were added)"),
                "\(help.stdout)")
    }
}
