import FeedTestSupport
import Foundation
import Testing

/// Docs are tested like code: every ```console example of README.md and docs/*.md runs, in
/// order, page by page, as the README's "Examples" section describes: in a scratch folder
/// holding `videos.json` (the demo feed), `front.mp4` and `back.mp4` (4 s, 540x960, the same
/// sound 0.4 s apart), with `FEED_HOME` an empty folder and the built `feed` first on PATH.
/// Each command must exit 0 (a pipeline: its last command), and where the page shows output, print it: `...` on a line of its
/// own stands for any lines, `…` inside a line for any text.
@Suite("docs: every console example runs as shown")
struct DocExamplesTests {
    /// One `$ command` of a page and the output shown under it.
    struct Example: CustomStringConvertible {
        var page: String
        var line: Int
        var command: String
        var expected: [String]
        var description: String { "\(page):\(line): $ \(command)" }
    }

    /// README.md and every page of docs/, by their path in the repository.
    static let pages: [String] = {
        let docs = RepositoryFiles.root.appendingPathComponent("docs")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + names.map { "docs/" + $0 }
    }()

    /// The console examples of `text`.
    static func examples(in text: String, page: String) -> [Example] {
        var examples: [Example] = []
        var inConsole = false
        var pending: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            if line.hasPrefix("```") {
                inConsole = !inConsole && line == "```console"
                pending = nil
                continue
            }
            guard inConsole else { continue }
            if let head = pending {
                // A command continued with a trailing backslash.
                let joined = head + "\n" + line
                if line.hasSuffix("\\") { pending = joined } else { pending = nil; examples[examples.count - 1].command = joined }
                continue
            }
            if line.hasPrefix("$ ") {
                let command = String(line.dropFirst(2))
                examples.append(Example(page: page, line: index + 1, command: command, expected: []))
                if command.hasSuffix("\\") { pending = command }
            } else if !examples.isEmpty, examples[examples.count - 1].page == page {
                examples[examples.count - 1].expected.append(line)
            }
        }
        return examples
    }

    /// Whether `actual` lines are what `expected` shows (`...` any lines, `…` any text in a line).
    static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            let rest = Array(expected.dropFirst())
            return (0...actual.count).contains { matches(rest, Array(actual.dropFirst($0))) }
        }
        guard let line = actual.first, matches(line: first, line) else { return false }
        return matches(Array(expected.dropFirst()), Array(actual.dropFirst()))
    }

    /// One line against its pattern: the pieces between `…` appear in order, the first at the
    /// start, the last at the end.
    static func matches(line pattern: String, _ line: String) -> Bool {
        let pieces = pattern.components(separatedBy: "…")
        if pieces.count == 1 { return pattern == line }
        guard line.hasPrefix(pieces[0]), line.hasSuffix(pieces[pieces.count - 1]),
              line.count >= pieces[0].count + pieces[pieces.count - 1].count else { return false }
        var rest = Substring(line.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count))
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// Makes `front.mp4` and `back.mp4` in `folder` with ffmpeg.
    static func makeClips(in folder: ScratchFolder) async throws {
        let noise = "anoisesrc=d=5:c=pink:r=44100:a=0.3:seed=42"
        let common = ["-t", "4", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"]
        let back = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=540x960:r=30:d=4",
                                                          "-f", "lavfi", "-i", noise] + common + [folder.path("back.mp4")])
        // The front started 0.4 s after the back: its sound is the back's from 0.4 s on.
        let front = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=540x960:r=30:d=4",
                                                           "-f", "lavfi", "-i", noise, "-af", "atrim=start=0.4,asetpts=PTS-STARTPTS"]
                                       + common + [folder.path("front.mp4")])
        guard back.status == 0, front.status == 0 else { throw ClipsFailed(message: back.stderr + front.stderr) }
    }

    struct ClipsFailed: Error { var message: String }

    @Test("the README and docs/ have console examples, and the checker reads them as the README says")
    func parser() {
        let text = "a\n```console\n$ feed list \\\n  --limit 1\nID …\n...\n$ true\n```\n```sh\n$ not run\n```\n"
        let found = Self.examples(in: text, page: "p")
        #expect(found.map(\.command) == ["feed list \\\n  --limit 1", "true"] && found[0].expected == ["ID …", "..."])
        #expect(Self.matches(["ID …", "..."], ["ID  USER", "1", "2"]) && !Self.matches(["ID …"], ["ID  USER", "1"]))
        #expect(Self.matches(line: "out.mp4  …  audio back  (… s)", "out.mp4  540x1920  30 fps  audio back  (2.7 s)"))
        #expect(!Self.matches(line: "a…b", "ab c"))
        let all = Self.pages.flatMap { page in
            Self.examples(in: (try? String(contentsOf: RepositoryFiles.root.appendingPathComponent(page), encoding: .utf8)) ?? "", page: page)
        }
        #expect(all.count >= 10, "console examples found: \(all.count)")
        #expect(all.contains { $0.page == "README.md" && $0.command.hasPrefix("feed ") })
    }

    @Test("each page's examples run in order and print what the page shows", arguments: pages)
    func page(_ page: String) async throws {
        let text = try String(contentsOf: RepositoryFiles.root.appendingPathComponent(page), encoding: .utf8)
        let examples = Self.examples(in: text, page: page)
        guard !examples.isEmpty else { return }
        // A page keeping media in a bucket (machines.md) runs against the test store, as `feed-test`.
        let store = TestObjectStore.current
        if text.contains("--media s3://"), store == nil {
            #expect(!TestObjectStore.isRequired, "\(page) needs the object store")
            return
        }
        let folder = try ScratchFolder()
        try FileManager.default.copyItem(at: RepositoryFiles.root.appendingPathComponent("Fixtures/videos.json"), to: folder.url("videos.json"))
        try await Self.makeClips(in: folder)
        let bin = FeedProcess.executable.deletingLastPathComponent().path
        let environment = [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "FEED_HOME": folder.path("home"),
        ].merging(store?.environment ?? [:]) { $1 }
        for example in examples {
            // As a shell runs it: a pipeline's status is its last command's (a page shows a failure
            // on purpose with `; echo $?`).
            let run = try await FeedProcess.run(["-c", example.command], environment: environment,
                                                currentDirectory: folder.url, executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(run.status == 0, "\(example) exited \(run.status): \(run.stderr)")
            guard !example.expected.isEmpty else { continue }
            #expect(Self.matches(example.expected, run.lines),
                    "\(example)\n--- the page shows:\n\(example.expected.joined(separator: "\n"))\n--- feed printed:\n\(run.stdout)")
        }
    }
}
