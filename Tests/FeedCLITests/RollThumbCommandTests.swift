import Foundation
import Testing
import FeedTestSupport

@Suite("feed roll thumb")
struct RollThumbCommandTests {
    @Test("-o writes a JPEG of the video's size; without -o the cached path is printed")
    func thumb() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1, width: 96, height: 64)]).status == 0)
        let id = String(try #require(try await home.rows().first?["id"] as? Int))
        let out = home.folder.url.appendingPathComponent("poster.jpg").path
        let run = try await home.run(["roll", "thumb", id, "-o", out, "--at", "0.5"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == out + "\n")
        let size = try #require(ImageHeader.jpegSize([UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))))
        #expect(size.width == 96 && size.height == 64)
        let cached = try await home.run(["roll", "thumb", id])
        #expect(cached.status == 0)
        #expect(cached.stdout.hasPrefix(home.recordings.appendingPathComponent(".thumbs").path))
        #expect(home.hidden(".thumbs").count == 2)
        // An existing -o is kept (73) unless --force.
        let refused = try await home.run(["roll", "thumb", id, "-o", out, "--at", "0.2"])
        #expect(refused.status == 73 && refused.stderr.contains("exists (--force replaces it)"), "\(refused.stderr)")
        #expect(try await home.run(["roll", "thumb", id, "-o", out, "--at", "0.2", "--force"]).status == 0)
    }

    /// swscale writes RGB rows in blocks: a width that is an odd multiple of 8 (a 360-wide phone
    /// clip) ran 24 bytes past each row, and past the picture for the last (heap corruption, abort).
    @Test("posters of widths whose RGB rows are not whole SIMD blocks: no overrun, the right size", arguments: [200, 344, 360, 376])
    func oddBlockWidths(width: Int) async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: width, width: width, height: 64, frames: 3)]).status == 0)
        let id = String(try #require(try await home.rows().first?["id"] as? Int))
        let out = home.folder.url.appendingPathComponent("poster.jpg").path
        let run = try await home.run(["roll", "thumb", id, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        let size = ImageHeader.jpegSize([UInt8]((try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()))
        #expect(size?.width == width && size?.height == 64)
    }

    @Test("a thumbnail is an image, not a video: probe and roll add refuse it with 65 and say so")
    func thumbnailIsNotAVideo() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1)]).status == 0)
        let id = String(try #require(try await home.rows().first?["id"] as? Int))
        let jpeg = home.folder.url.appendingPathComponent("poster.jpg").path
        #expect(try await home.run(["roll", "thumb", id, "-o", jpeg]).status == 0)

        let probe = try await home.run(["probe", jpeg])
        let add = try await home.run(["roll", "add", jpeg])

        #expect(probe.status == 65 && add.status == 65)
        #expect(probe.stderr == "feed: \(jpeg): refused: an image (jpeg_pipe), not a video\n")
        #expect(add.stderr.hasPrefix("feed: \(jpeg): ") && add.stderr.contains("an image (jpeg_pipe), not a video"), "\(add.stderr)")
        #expect(try await home.rows().count == 1)
    }

    @Test("a time past the end or a negative one is a usage error; an unknown id is 65")
    func errors() async throws {
        let home = try RollHome()
        #expect(try await home.run(["roll", "add", home.clip("a.mp4", seed: 1)]).status == 0)
        let id = String(try #require(try await home.rows().first?["id"] as? Int))
        #expect(try await home.run(["roll", "thumb", id, "--at", "60"]).status == 64)
        #expect(try await home.run(["roll", "thumb", id, "--at", "-1"]).status == 64)
        #expect(try await home.run(["roll", "thumb", "999"]).status == 65)
    }
}
