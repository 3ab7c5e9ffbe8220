import FeedCore
import Foundation
import Testing
import FeedTestSupport

/// Hostile feed files through the real binary: `feed list` and `feed validate` exit 65 with
/// one located line (the same one FeedCore reports), warn where the file is only risky, and
/// never crash.
@Suite("Hostile input files")
struct HostileInputTests {
    /// Named hostile feeds that must fail to load.
    static let invalid: [(name: String, bytes: [UInt8])] = [
        ("nested-100000", Array(repeating: UInt8(ascii: "["), count: 100_000) + [0x31] + Array(repeating: UInt8(ascii: "]"), count: 100_000)),
        ("utf8-in-string", Array(#"{"videos":[{"id":1,"username":"a"#.utf8) + [0xC3, 0x28] + Array(#"","video":"https://e.com/1"}]}"#.utf8)),
        ("utf8-raw", [0xFF, 0xFE, 0x00, 0x7B]),
        ("beyond-int64", Array(#"{"videos":[{"id":1,"username":"u","video":"https://e.com/1","likes":9223372036854775808}]}"#.utf8)),
        ("nan", Array(#"{"videos":[{"id":1,"username":"u","video":"https://e.com/1","duration":NaN}]}"#.utf8)),
        ("infinity", Array(#"{"videos":[{"id":1,"username":"u","video":"https://e.com/1","duration":-Infinity}]}"#.utf8)),
        ("zero-bytes", []),
        ("whitespace", Array("\n \t\n".utf8)),
        ("javascript-url", Array(#"{"videos":[{"id":1,"username":"u","video":"javascript:alert(1)"}]}"#.utf8)),
        ("dotdot-id", Array(#"{"videos":[{"id":"../../etc/passwd","username":"u","video":"https://e.com/1"}]}"#.utf8)),
        ("dotdot-post-id", Array(#"[{"id":"../x","media":[]}]"#.utf8)),
    ]

    @Test(arguments: invalid.map(\.name))
    func listExits65WithOneLocatedLine(name: String) async throws {
        let folder = try ScratchFolder()
        let bytes = try #require(Self.invalid.first { $0.name == name }).bytes
        let path = try folder.write("\(name).json", bytes: bytes)
        let expected = try #require(FeedLoader.validate(bytes: bytes, source: path).first { $0.severity == .error })

        let run = try await FeedProcess.run(["list", "--feed", path])

        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "feed: \(expected.description)\n")
    }

    @Test(arguments: invalid.map(\.name))
    func validateExits65AndNamesTheProblem(name: String) async throws {
        let folder = try ScratchFolder()
        let bytes = try #require(Self.invalid.first { $0.name == name }).bytes
        let path = try folder.write("\(name).json", bytes: bytes)

        let run = try await FeedProcess.run(["validate", path])

        #expect(run.status == 65)
        #expect(run.lines.count == 1, "\(run.stdout)")
        #expect(run.lines.first?.hasPrefix(path + ":") == true)
    }

    @Test func deepNestingOnStandardInputExits65() async throws {
        let run = try await FeedProcess.run(["list", "--feed", "-"], stdin: Data(repeating: UInt8(ascii: "["), count: 100_000))
        #expect(run.status == 65)
        #expect(run.stderr == "feed: <stdin>:1:513: nesting deeper than 512 levels\n")
    }

    @Test func aByteOrderMarkedFeedLists() async throws {
        let folder = try ScratchFolder()
        let path = try folder.write("bom.json", bytes: [0xEF, 0xBB, 0xBF] + Array(Fixture.videos.utf8))

        let run = try await FeedProcess.run(["list", "--feed", path, "--ndjson"])

        #expect(run.status == 0)
        #expect(run.lines.count == Fixture.videoIDs.count)
        #expect(run.stderr.isEmpty)
    }

    @Test func terminalEscapesInFeedTextAreNotPrinted() async throws {
        // Given a feed whose text fields carry a window-title escape and a C1 clear-screen.
        let folder = try ScratchFolder()
        let text = #"{"videos":[{"id":1,"username":"u\u001b]0;owned\u0007","description":"hi \u009b2J there","video":"https://e.com/1.mp4"}]}"#
        let path = try folder.write("escapes.json", text)

        // When it is listed and shown for a person (not JSON, which escapes them itself).
        let list = try await FeedProcess.run(["list", "--feed", path])
        let show = try await FeedProcess.run(["show", "1", "--feed", path])

        // Then no control character reaches stdout, and the text is still there.
        for run in [list, show] {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
            #expect(run.stdout.contains("]0;owned") && run.stdout.contains("2J there"))
        }
    }

    @Test func aDataURLListsWithAWarningAndValidatesWithIt() async throws {
        let folder = try ScratchFolder()
        let text = #"{"videos":[{"id":1,"username":"u","video":"data:video/mp4;base64,AAAA"}]}"#
        let path = try folder.write("local.json", text)
        let at = try #require(Fixture.location(of: "\"data:", in: text))
        let line = "\(path):\(at.line):\(at.column): warning: videos[0].video: data: URL is not http(s) or file: only trust it in a feed you made"

        let list = try await FeedProcess.run(["list", "--feed", path, "--ndjson"])
        let validate = try await FeedProcess.run(["validate", path])

        #expect(list.status == 0)
        #expect(list.lines.count == 1)
        #expect(list.stderr == "feed: \(line)\n")
        #expect(validate.status == 0)
        #expect(validate.stdout == line + "\n")
    }

    @Test func a200MBStringLoadsInBoundedMemory() async throws {
        // Given a feed whose one description is 200 MB.
        let folder = try ScratchFolder()
        let size = 200 << 20
        let head = Array(#"{"videos":[{"id":1,"username":"u","video":"https://e.com/1.mp4","description":""#.utf8)
        let tail = Array(#""}]}"#.utf8)
        // Block copies: a per-byte append of 200 MB takes minutes in a debug build.
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: head.count + size + tail.count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<head.count]).initialize(from: head)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[(head.count + size)...]).initialize(from: tail)
        }
        let path = try folder.write("big.json", bytes: bytes)
        bytes = []
        let rss = folder.url.appendingPathComponent("rss").path

        // When `list` loads it all (the tag filter keeps the output small), under /usr/bin/time.
        let time = "/usr/bin/time"
        let measured = FileManager.default.isExecutableFile(atPath: time)
        let run = measured
            ? try await Tool.run(time, ["-f", "%M", "-o", rss, FeedProcess.executable.path, "list", "--feed", path, "--tag", "none", "--json"])
            : try await FeedProcess.run(["list", "--feed", path, "--tag", "none", "--json"])

        // Then it succeeds, and peak memory stays within three times the file.
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "[]\n")
        if measured {
            let kilobytes = try #require(Int(String(decoding: try Data(contentsOf: URL(fileURLWithPath: rss)), as: UTF8.self)
                .split(separator: "\n").last ?? ""))
            #expect(kilobytes * 1024 < 3 * size, "peak RSS \(kilobytes / 1024) MB for a \(size >> 20) MB feed")
        }
    }
}
