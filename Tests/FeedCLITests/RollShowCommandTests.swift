import Foundation
import Testing

@Suite("feed roll show")
struct RollShowCommandTests {
    @Test("every field as key: value lines, and as one JSON object")
    func show() async throws {
        let home = try RollHome()
        let a = try home.clip("a.mp4", seed: 1)
        #expect(try await home.run(["roll", "add", a, "--title", "lunch"]).status == 0)
        let id = try #require(try await home.rows().first?["id"] as? Int)
        let text = try await home.run(["roll", "show", String(id)])
        #expect(text.status == 0)
        for key in ["id:", "title:", "file:", "original_path:", "created_at:", "duration:", "size:", "fps:", "video_codec:", "sha256:", "sources:"] {
            #expect(text.stdout.contains(key), "\(key)")
        }
        #expect(text.stdout.contains("lunch") && text.stdout.contains("64x48") && text.stdout.contains(a))
        let json = try #require(try await home.run(["roll", "show", String(id), "--json"]).json() as? [String: Any])
        #expect(json["id"] as? Int == id && json["title"] as? String == "lunch" && json["video_codec"] as? String == "h264")
    }

    @Test("an unknown id exits 65 naming it", arguments: ["42", "x7"])
    func unknown(id: String) async throws {
        let home = try RollHome()
        let run = try await home.run(["roll", "show", id])
        #expect(run.status == 65)
        #expect(run.stderr == "feed: roll: no recording with id \(id)\n")
    }
}
