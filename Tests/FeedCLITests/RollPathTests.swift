import Foundation
import Testing

/// Paths and ids that try to reach outside the roll: `roll add` of `../` paths, odd names and
/// symbolic links; `roll show`, `rm` and `thumb` of ids that look like paths. Each works or
/// fails with one line and the documented status, never touches a file outside the roll, and
/// leaves `roll verify` clean.
@Suite("feed roll with hostile paths and ids")
struct RollPathTests {
    /// Runs `feed arguments…` with the home's FEED_HOME from the folder `directory`.
    static func run(_ home: RollHome, _ arguments: [String], from directory: URL) async throws -> FeedRun {
        try await StackFaultTests.limited(["/usr/bin/env", "FEED_HOME=\(home.home.path)", "/bin/sh", "-c", #"cd "$0" && exec "$@""#,
                                           directory.path, FeedProcess.executable.path] + arguments)
    }

    /// `roll verify` finds nothing and every row has its file.
    static func expectClean(_ home: RollHome) async throws {
        let verify = try await home.run(["roll", "verify"])
        #expect(verify.status == 0 && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")
        #expect(try await home.rows().count == home.storedFiles().count)
        #expect(home.hidden(".incoming").isEmpty && home.hidden(".trash").isEmpty)
    }

    static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test("odd names added as ../NAME from a sub-folder: copied in under a generated name, the original path kept",
          arguments: ["clip.mp4", "sp ace.mp4", "new\nline.mp4", "-dash.mp4", "ünïcødé 😀.mp4", "esc\u{1B}]0;x\u{07}.mp4"])
    func oddNames(name: String) async throws {
        let home = try RollHome()
        try home.clip(name, seed: 7)
        let sub = home.folder.url.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)

        let add = try await Self.run(home, ["roll", "add", "--json", "--", "../" + name], from: sub)
        let rows = try await home.rows()
        let show = try await home.run(["roll", "show", "1"])
        let list = try await home.run(["roll"])

        #expect(add.status == 0, "\(add.stderr)")
        #expect(rows.first?["original_path"] as? String == home.folder.url.appendingPathComponent(name).path)
        let stored = try #require(home.storedFiles().first)
        #expect(stored.range(of: #"^\d{8}-\d{6}-[0-9a-f]{16}\.mp4$"#, options: .regularExpression) != nil, "\(stored)")
        #expect(FileManager.default.fileExists(atPath: home.folder.url.appendingPathComponent(name).path), "copied, not moved")
        for run in [show, list] {
            #expect(run.status == 0 && Self.isPrintable(run.stdout), "\(run.stdout)")
        }
        try await Self.expectClean(home)
    }

    @Test("a file named with a newline that is not a video: 65 and exactly one line naming it")
    func newlineNameNotMedia() async throws {
        let home = try RollHome()
        let path = try home.folder.write("bad\nname.mp4", "not a video\n")

        let add = try await home.run(["roll", "add", path])

        #expect(add.status == 65)
        #expect(add.stderr.split(separator: "\n", omittingEmptySubsequences: false).count == 2, "one line: \(add.stderr)")
        #expect(add.stderr.hasPrefix("feed: \(home.folder.url.path)/bad name.mp4: not a video file"), "\(add.stderr)")
        #expect(try await home.rows().isEmpty && home.storedFiles().isEmpty)
    }

    @Test("a folder named x.mp4 (65), an empty name (64) and a missing ../ path (66) add nothing",
          arguments: [("dir.mp4", Int32(65)), ("", 64), ("../missing.mp4", 66)])
    func refusedNames(name: String, status: Int32) async throws {
        let home = try RollHome()
        try FileManager.default.createDirectory(at: home.folder.url.appendingPathComponent("dir.mp4"), withIntermediateDirectories: false)
        let clip = try home.clip("clip.mp4", seed: 1)

        let add = try await Self.run(home, ["roll", "add", "--", clip, name], from: home.folder.url)

        #expect(add.status == status, "\(add.stderr)")
        #expect(add.stderr.split(separator: "\n").count == 1 && add.stderr.hasPrefix("feed: "), "\(add.stderr)")
        #expect(try await home.rows().isEmpty && home.storedFiles().isEmpty, "the good clip before it is not added either")
        try await Self.expectClean(home)
    }

    @Test("a name with a leading dash without -- is a usage error (64) that says to put it after --, even one holding h; nothing added",
          arguments: ["-lead.mp4", "-dash.mp4", "-h.mp4"])
    func leadingDashWithoutSeparator(name: String) async throws {
        let home = try RollHome()
        try home.clip(name, seed: 4)

        let add = try await Self.run(home, ["roll", "add", name], from: home.folder.url)

        // ArgumentParser alone would read -dash.mp4 as -d -a -s -h and print the help with status 0.
        #expect(add.status == 64 && add.stdout.isEmpty)
        #expect(add.stderr == "feed: \(name): not an option; to name a file that starts with '-', write ./\(name) (or put it after '--')\n",
                "\(add.stderr)")
        #expect(try await home.rows().isEmpty && home.storedFiles().isEmpty)
    }

    @Test("a relative symbolic link to a clip outside, by copy, --link or --move: the roll holds the clip's bytes and verifies; rm leaves the clip",
          arguments: ["copy", "link", "move"])
    func symbolicLinkToOutside(mode: String) async throws {
        let home = try RollHome()
        let outside = home.folder.url.appendingPathComponent("outside")
        let inside = home.folder.url.appendingPathComponent("links")
        for folder in [outside, inside] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
        let clip = try home.clip("outside/clip.mp4", seed: 3)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let link = inside.appendingPathComponent("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../outside/clip.mp4")

        let add = try await home.run(["roll", "add", link.path] + (mode == "copy" ? [] : ["--" + mode]))
        let thumb = try await home.run(["roll", "thumb", "1"])

        #expect(add.status == 0, "\(add.stderr)")
        let stored = home.recordings.appendingPathComponent(try #require(home.storedFiles().first))
        #expect(try Data(contentsOf: stored) == bytes, "the stored file reads as the clip")
        #expect(thumb.status == 0, "\(thumb.stderr)")
        try await Self.expectClean(home)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == (mode == "move" ? nil : "../outside/clip.mp4"),
                "--move takes the link away; copy and --link leave it")

        let remove = try await home.run(["roll", "rm", "1"])

        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: clip)) == bytes, "the clip outside is untouched")
        #expect(try await home.rows().isEmpty && home.storedFiles().isEmpty)
        try await Self.expectClean(home)
    }

    @Test("ids that look like paths: show, rm and thumb exit 65 with one line; nothing is removed or written",
          arguments: ["../../etc/passwd", "..", "../victim.mp4", "/etc/passwd", "", "1\n2", "1/../1", "0", "-1",
                      "99999999999999999999", " 1", "2"])
    func hostileIDs(id: String) async throws {
        let home = try RollHome()
        let victim = try home.clip("victim.mp4", seed: 5)
        let add = try await home.run(["roll", "add", try home.clip("clip.mp4", seed: 6)])
        #expect(add.status == 0, "\(add.stderr)")
        let before = home.storedFiles()

        for command in ["show", "rm", "thumb"] {
            let run = try await home.run(["roll", command, "--", id])

            #expect(run.status == 65, "\(command) \(id.debugDescription): \(run.status) \(run.stderr)")
            #expect(run.stdout.isEmpty)
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[0].hasPrefix("feed: roll: ") && Self.isPrintable(run.stderr), "\(run.stderr)")
        }
        let mixed = try await home.run(["roll", "rm", "1", "--", id])

        #expect(mixed.status == 65, "one bad id removes nothing: \(mixed.stderr)")
        let rows = try await home.rows()
        #expect(home.storedFiles() == before && rows.count == 1)
        #expect(home.hidden(".thumbs").isEmpty)
        #expect(FileManager.default.fileExists(atPath: victim))
        try await Self.expectClean(home)
    }

    @Test("a row whose file_name was edited to ../../victim.mp4 reads as a missing file: nothing outside is read or removed",
          arguments: ["../../victim.mp4", "..", "/etc/hostname"])
    func editedFileName(name: String) async throws {
        let home = try RollHome()
        let victim = try home.clip("victim.mp4", seed: 8)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: victim))
        let add = try await home.run(["roll", "add", try home.clip("clip.mp4", seed: 9)])
        #expect(add.status == 0, "\(add.stderr)")
        let sql = "UPDATE recording SET file_name = '\(name)'"
        let edit = try await StackFaultTests.limited(["/usr/bin/sqlite3", home.home.appendingPathComponent("roll.sqlite").path, sql])
        #expect(edit.status == 0, "\(edit.stderr)")

        let verify = try await home.run(["roll", "verify"])
        let thumb = try await home.run(["roll", "thumb", "1"])
        let remove = try await home.run(["roll", "rm", "1"])

        #expect(verify.status == 1 && verify.stdout.contains("recording 1: file \(name) is missing"), "\(verify.stdout)")
        #expect(thumb.status == 66, "no poster of a file outside the roll: \(thumb.stdout)\(thumb.stderr)")
        #expect(home.hidden(".thumbs").isEmpty)
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == bytes, "the file outside is untouched")
        let fix = try await home.run(["roll", "verify", "--fix"])
        #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
        try await Self.expectClean(home)
    }
}
