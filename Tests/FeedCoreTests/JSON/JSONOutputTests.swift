import Foundation
import Testing
@testable import FeedCore

@Suite struct JSONOutputTests {
    private let tricky = Video(
        id: .int(7), userID: .string("u-1"), username: "a \"quoted\" name",
        profilePicURL: URL(string: "https://example.com/p.png?a=1&b=2"),
        description: "line one\nline two\ttab \\ back /slash café 🌮 \u{1} #tacos", topic: nil,
        viewers: 12, likes: -3, video: URL(string: "https://example.com/v.mp4"), thumbnail: nil,
        duration: 35.035, width: 428, height: nil)

    private func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func videoRoundTripsThroughFoundation() throws {
        // Given a video with characters that need escaping
        var out: [UInt8] = []
        // When encoded
        JSONOutput.encode(tricky, into: &out)
        // Then Foundation reads back every field
        let json = try object(out)
        #expect(json["id"] as? Int == 7)
        #expect(json["user_id"] as? String == "u-1")
        #expect(json["username"] as? String == tricky.username)
        #expect(json["profile_pic_url"] as? String == "https://example.com/p.png?a=1&b=2")
        #expect(json["description"] as? String == tricky.description)
        #expect(json["topic"] is NSNull)
        #expect(json["viewers"] as? Int == 12)
        #expect(json["likes"] as? Int == -3)
        #expect(json["video"] as? String == "https://example.com/v.mp4")
        #expect(json["thumbnail"] is NSNull)
        #expect(json["hashtags"] as? [String] == ["tacos"])
        #expect(json["duration"] as? Double == 35.035)
        #expect(json["width"] as? Int == 428)
        #expect(json["height"] is NSNull)
        #expect(json.count == 14)
        // Control characters are escaped, non-ASCII is written as UTF-8.
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains(#"line one\nline two\ttab \\ back"#))
        #expect(text.contains(#"\u0001"#))
        #expect(text.contains("café 🌮"))
    }

    @Test func arrayAndNDJSONHoldEveryVideo() throws {
        let videos = [tricky, Video(id: .int(Int64.min), username: "", viewers: Int.max)]
        let array = JSONOutput.array(videos)
        #expect(array.last == UInt8(ascii: "\n"))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(array)) as? [[String: Any]])
        #expect(parsed.count == 2)
        #expect(parsed[1]["id"] as? Int64 == Int64.min)
        #expect(parsed[1]["viewers"] as? Int == Int.max)
        #expect(parsed[1]["duration"] is NSNull)
        let lines = String(decoding: JSONOutput.ndjson(videos), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try object(Array(lines[0].utf8))["username"] as? String == tricky.username)
        #expect(JSONOutput.array([]) == Array("[]\n".utf8))
    }

    @Test func commentRoundTrips() throws {
        let comment = Comment(id: .int(3), username: "jn", picURL: nil, comment: "say \"hi\"\n")
        var out: [UInt8] = []
        JSONOutput.encode(comment, into: &out)
        let json = try object(out)
        #expect(json["id"] as? Int == 3)
        #expect(json["username"] as? String == "jn")
        #expect(json["pic_url"] is NSNull)
        #expect(json["comment"] as? String == "say \"hi\"\n")
    }

    @Test func outputParsesBackWithOurOwnParser() throws {
        let document = try JSONParser.parse(JSONOutput.array([tricky]))
        let first = document.elements(of: document.root)[0]
        #expect(document.string(try #require(document.member("description", of: first))) == tricky.description)
    }
}
