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
}
