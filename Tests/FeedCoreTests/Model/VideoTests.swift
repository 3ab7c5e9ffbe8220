import Foundation
import Testing
@testable import FeedCore

@Suite struct VideoTests {
    @Test(arguments: [
        ("#tacos #food", ["tacos", "food"]),
        ("French food at San Jose #french ", ["french"]),
        ("Tasty. #mediterranean #private_chef, #Celebrate!", ["mediterranean", "private_chef", "Celebrate"]),
        ("no tags # here ## x", []),
        ("#café#tea", ["café", "tea"]),
        ("", []),
    ])
    func hashtagsComeFromTheDescription(description: String, tags: [String]) {
        #expect(Video.hashtags(in: description) == tags)
        #expect(Video(id: .int(1), username: "u", description: description).hashtags == tags)
    }

    @Test func codableUsesTheHouseFieldNames() throws {
        let video = Video(id: .int(1), userID: .int(2), username: "u", profilePicURL: URL(string: "https://x.test/p"),
                          description: "#a", viewers: 3, likes: 4, duration: 1.5)
        let data = try JSONEncoder().encode(video)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["user_id"] as? Int == 2)
        #expect(json["profile_pic_url"] as? String == "https://x.test/p")
        #expect(json["hashtags"] as? [String] == ["a"])
        #expect(try JSONDecoder().decode(Video.self, from: data) == video)
    }

    @Test func urlsAreKeptAsTheirAbsoluteTextAndReadBackAsURLs() throws {
        // Given URLs set through the initializer and through the setters.
        let avatar = try #require(URL(string: "https://x.test/p.png?a=1&b=2"))
        let clip = try #require(URL(string: "file:///tmp/clip%201.mp4"))
        var video = Video(id: .int(1), username: "u", profilePicURL: avatar, video: clip)
        video.thumbnail = URL(string: "https://x.test/t.png")

        // Then they read back equal, and the stored text is what JSON output writes.
        #expect(video.profilePicURL == avatar)
        #expect(video.video == clip)
        #expect(video.thumbnail?.absoluteString == "https://x.test/t.png")
        #expect(video.videoText == clip.absoluteString)
        var out: [UInt8] = []
        JSONOutput.encode(video, into: &out)
        #expect(String(decoding: out, as: UTF8.self).contains(#""video":"file:///tmp/clip%201.mp4","thumbnail":"https://x.test/t.png""#))

        video.thumbnail = nil
        #expect(video.thumbnail == nil)
        #expect(video != Video(id: .int(1), username: "u", profilePicURL: avatar, video: clip, thumbnail: URL(string: "https://x.test/t.png")))
    }

    @Test func aPathReferenceIsKeptAsWrittenAndIsNotAURL() throws {
        var video = Video(id: .int(1), username: "u")
        video.videoReference = .path("../clips/a b.mp4")
        video.thumbnailReference = .path("/srv/t.png")

        #expect(video.video == nil && video.thumbnail == nil)
        var out: [UInt8] = []
        JSONOutput.encode(video, into: &out)
        #expect(String(decoding: out, as: UTF8.self).contains(#""video":"../clips/a b.mp4","thumbnail":"/srv/t.png""#))
        let decoded = try JSONDecoder().decode(Video.self, from: try JSONEncoder().encode(video))
        #expect(decoded == video)
        #expect(decoded.videoReference == .path("../clips/a b.mp4"))
    }

    @Test func decodingChecksURLs() throws {
        let json = #"{"id":1,"username":"u","description":"","viewers":0,"likes":0,"hashtags":[],"video":"https://x.test/v.mp4"}"#
        let video = try JSONDecoder().decode(Video.self, from: Data(json.utf8))
        #expect(video.video?.absoluteString == "https://x.test/v.mp4")
        #expect(video.thumbnail == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Video.self, from: Data(json.replacingOccurrences(of: "\"https://x.test/v.mp4\"", with: "5").utf8))
        }
    }
}
