import Foundation
import Testing
@testable import FeedCore

@Suite("RecordingJSON")
struct RecordingJSONTests {
    static func recording(title: String?, sources: [String]?) -> Recording {
        Recording(id: 7, fileName: "a \"b\".mp4", originalPath: "/in/a\\b\n.mp4", createdAt: Date(timeIntervalSince1970: 1_700_000_000.25),
                  media: RecordingMedia(duration: 12.5, width: 1080, height: 1920, fps: 29.97, videoCodec: "h264", hasAudio: true),
                  bytes: 123_456_789, sha256: String(repeating: "ab", count: 32), sources: sources,
                  stackOptions: sources == nil ? nil : #"{"layout":"vertical"}"#, title: title)
    }

    @Test("an object parses back with every field, escapes intact, in the documented order")
    func object() throws {
        var out: [UInt8] = []
        RecordingJSON.encode(Self.recording(title: "tür ✓", sources: ["/f.mp4", "/b.mp4"]), file: "/r/a \"b\".mp4", into: &out)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        #expect(json["id"] as? Int == 7)
        #expect(json["file"] as? String == "/r/a \"b\".mp4")
        #expect(json["original_path"] as? String == "/in/a\\b\n.mp4")
        #expect(json["created_at"] as? String == "2023-11-14T22:13:20.250Z")
        #expect(json["duration"] as? Double == 12.5 && json["fps"] as? Double == 29.97)
        #expect(json["width"] as? Int == 1080 && json["height"] as? Int == 1920)
        #expect(json["has_audio"] as? Bool == true && json["bytes"] as? Int == 123_456_789)
        #expect(json["sources"] as? [String] == ["/f.mp4", "/b.mp4"])
        #expect(json["stack_options"] as? [String: String] == ["layout": "vertical"], "an object, not JSON text in a string")
        #expect(json["title"] as? String == "tür ✓")
        let text = String(decoding: out, as: UTF8.self)
        let order = ["\"id\"", "\"file\"", "\"file_name\"", "\"original_path\"", "\"created_at\"", "\"duration\"", "\"width\"",
                     "\"height\"", "\"fps\"", "\"video_codec\"", "\"has_audio\"", "\"bytes\"", "\"sha256\"", "\"sources\"",
                     "\"stack_options\"", "\"title\""].map { text.range(of: $0)!.lowerBound }
        #expect(order == order.sorted())
    }

    @Test("absent optional fields are null; array and NDJSON forms hold every recording")
    func forms() throws {
        let records = [Self.recording(title: nil, sources: nil), Self.recording(title: "x", sources: nil)]
        let array = try #require(try JSONSerialization.jsonObject(with: Data(RecordingJSON.array(records) { $0.fileName })) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array[0]["title"] is NSNull && array[0]["sources"] is NSNull && array[0]["stack_options"] is NSNull)
        let lines = String(decoding: RecordingJSON.ndjson(records) { $0.fileName }, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
        #expect(RecordingJSON.array([]) { $0.fileName } == Array("[]\n".utf8))
    }
}
