import Foundation
import Testing
@testable import FeedCore

@Suite struct FeedsAppDecoderTests {
    private let peerFile = TestFiles.peerData.appendingPathComponent("ArshwinDenuevLal__FeedsApp__FeedsJSON.json")

    @Test func peerFeedMapsEveryPostToAVideo() throws {
        // Given the FeedsApp team's published feed
        let feed = try FeedLoader.load(path: peerFile.path)
        // Then every post is one video
        #expect(feed.format == .feedsApp)
        #expect(feed.posts.count == 26)
        #expect(feed.videos.count == 26)
        #expect(feed.posts.filter { $0.media.contains { $0.type == .video } }.count == 7)
        #expect(feed.videos.filter { $0.duration != nil }.count == 7)
        let first = feed.posts[0]
        #expect(first.id == .string("DJDphyX"))
        #expect(first.accountID == .int(190749447))
        #expect(first.title == "Chasing Morning Light")
        #expect(first.url?.absoluteString == "https://imgur.com/a/DJDphyX")
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_745_272_444))
        #expect(first.media.first?.type == .image)
        #expect(first.media.first?.mimeType == "image/jpeg")
        #expect(first.media.first?.size == 193130)
        #expect(feed.videos[0].thumbnail?.absoluteString == "https://i.imgur.com/0aNIBif.jpeg")
        #expect(feed.videos[0].username == "190749447")
        let echoes = try #require(feed.videos.first { $0.description == "Echoes of Silence" })
        #expect(echoes.duration == 35.035)
        #expect(echoes.video?.absoluteString == "https://i.imgur.com/q9F0Ufa.mp4")
        #expect(echoes.width == 428 && echoes.height == 854)
        #expect(echoes.thumbnail == nil)
        let post = try #require(feed.posts.first { $0.id == echoes.id })
        #expect(post.media[0].metadata == Media.Metadata(duration: 35.035, isLooping: true, hasSound: true))
    }

    @Test func videoPrefersVideoMediaAndJoinsTitleAndDescription() {
        let image = Media(id: .string("i"), type: .image, url: URL(string: "https://x.test/i.jpg"), width: 10, height: 20)
        let clip = Media(id: .string("c"), type: .video, url: URL(string: "https://x.test/c.mp4"), width: 30, height: 40,
                         metadata: .init(duration: 2.5))
        let post = Post(id: .string("p"), title: "T", description: "D #x", viewCount: 5, upvoteCount: 6, media: [image, clip])
        let video = FeedsAppDecoder.video(for: post)
        #expect(video.video == clip.url)
        #expect(video.thumbnail == image.url)
        #expect(video.description == "T — D #x")
        #expect(video.hashtags == ["x"])
        #expect((video.viewers, video.likes, video.width, video.duration) == (5, 6, 30, 2.5))
        #expect(video.username == "")
    }

    @Test func nestedProblemsCarryTheFullPath() throws {
        let text = """
        [
          {"id": "a", "media": []},
          {"id": "b", "view_count": -1, "media": [{"id": "m", "type": "gif", "url": "i.imgur.com/x.gif"}]}
        ]
        """
        let problems = FeedLoader.validate(bytes: Array(text.utf8), source: "posts.json")
        #expect(problems.map(\.path) == ["[1].view_count", "[1].media[0].type", "[1].media[0].url"])
        #expect(problems.map(\.severity) == [.error, .error, .warning])
        #expect(problems[1].message == #"expected "image" or "video", found "gif""#)
        #expect(problems[2].message == #"file path "i.imgur.com/x.gif" looks like a web address: put https:// in front if it is one"#)
        let url = try #require(TestFiles.lineColumn(of: #""i.imgur"#, in: text))
        #expect((problems[2].line, problems[2].column) == (url.line, url.column))
    }

    @Test func duplicatePostIDsWarn() throws {
        let text = #"[{"id": "a", "media": []}, {"id": "a", "media": []}]"#
        let feed = try FeedLoader.load(bytes: Array(text.utf8), source: "p.json")
        let second = try #require(TestFiles.lineColumn(of: #""a""#, in: text, last: true))
        #expect(feed.warnings.map(\.description) == [#"p.json:1:\#(second.column): warning: [1].id: duplicate id "a" (first used by [0])"#])
        #expect(feed.videos.count == 2)
    }
}
