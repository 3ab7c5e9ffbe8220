import FeedTestSupport
import Foundation
import Testing
@testable import FeedCore

@Suite struct FeedsAppDecoderTests {
    private let peerFile = PeerData.file("ArshwinDenuevLal__FeedsApp__FeedsJSON.json")

    @Test func ownFeedMapsEveryPostToAVideo() throws {
        // Given the project's FeedsApp fixture: images only, image + two videos, no metadata, no media
        let feed = try FeedLoader.load(path: FormatFixture.feedsApp.path)
        // Then every post is one video, in file order
        #expect(feed.format == .feedsApp)
        #expect(feed.posts.map(\.id) == ["AlbImg1", "MixVid2", "NoMeta3", "Empty4"].map(FeedID.string))
        #expect(feed.videos.map(\.id) == feed.posts.map(\.id))
        #expect(feed.posts.filter { $0.media.contains { $0.type == .video } }.map(\.id) == [.string("MixVid2"), .string("NoMeta3")])
        #expect(feed.warnings.isEmpty)
    }

    @Test func ownPostOfOnlyImagesPlaysItsFirstImage() throws {
        let feed = try FeedLoader.load(path: FormatFixture.feedsApp.path)
        let post = feed.posts[0], video = feed.videos[0]
        // The post's own fields, Imgur's extra members ignored
        #expect(post.accountID == .int(5_550_001))
        #expect(post.title == "Harbour at first light" && post.description == "")
        #expect((post.viewCount, post.upvoteCount, post.commentCount) == (410, 12, 3))
        #expect(post.createdAt == Date(timeIntervalSince1970: 1_745_272_444))
        #expect(post.url?.absoluteString == "https://imgur.example.test/a/AlbImg1")
        #expect(post.media.map(\.type) == [.image, .image])
        #expect(post.media.map(\.mimeType) == ["image/jpeg", "image/png"])
        #expect(post.media.map(\.size) == [193_130, 88_001])
        #expect(post.media[0].metadata == Media.Metadata(duration: 0, isLooping: false, hasSound: false))
        #expect(post.media[1].metadata == Media.Metadata(), "no metadata member: the defaults")
        // With no video medium the first medium is the playable file and the first image the thumbnail
        #expect(video.video?.absoluteString == "https://i.imgur.example.test/img1a.jpeg")
        #expect(video.thumbnail == video.video)
        #expect(video.duration == nil, "an image has no duration")
        #expect((video.width, video.height) == (735, 976))
        #expect(video.username == "5550001" && video.userID == .int(5_550_001))
        #expect(video.description == "Harbour at first light")
        #expect((video.viewers, video.likes) == (410, 12))
    }

    @Test func ownPostOfSeveralMediaPlaysItsFirstVideo() throws {
        let feed = try FeedLoader.load(path: FormatFixture.feedsApp.path)
        let post = feed.posts[1], video = feed.videos[1]
        #expect(post.accountID == .string("acct-β"))
        #expect(post.media.map(\.id) == ["cover2", "vid2a", "vid2b"].map(FeedID.string))
        #expect(post.media.map(\.type) == [.image, .video, .video])
        #expect(post.media[1].metadata == Media.Metadata(duration: 35.035, isLooping: true, hasSound: true))
        #expect(post.media[2].metadata == Media.Metadata(duration: 8, isLooping: false, hasSound: false))
        #expect(post.media[1].size == 4_718_592)
        #expect(post.createdAt == Date(timeIntervalSince1970: 1_746_081_000))
        // The first video plays, the first image is the thumbnail, title and description join
        #expect(video.video?.absoluteString == "https://i.imgur.example.test/vid2a.mp4")
        #expect(video.thumbnail?.absoluteString == "https://i.imgur.example.test/cover2.jpeg")
        #expect(video.duration == 35.035)
        #expect((video.width, video.height) == (428, 854))
        #expect(video.description == "Sunrise ☀️ over the bay — shot on a phone #sunrise #海")
        #expect(video.hashtags == ["sunrise", "海"])
        #expect(video.username == "acct-β")
        #expect((video.viewers, video.likes) == (9876, 321))
    }

    @Test func ownPostsWithoutMetadataOrMediaTakeTheDefaults() throws {
        let feed = try FeedLoader.load(path: FormatFixture.feedsApp.path)
        // Media without metadata (and with only a duration) default the rest; absent fields are empty
        let bare = feed.posts[2]
        #expect(bare.accountID == nil && bare.createdAt == nil && bare.url == nil)
        #expect(bare.title == "" && bare.description == "")
        #expect(bare.media.map(\.metadata) == [Media.Metadata(), Media.Metadata(duration: 4.5)])
        #expect(bare.media.map(\.mimeType) == ["", ""])
        #expect((bare.media[1].width, bare.media[1].height, bare.media[1].size) == (0, 0, 0))
        #expect(feed.videos[2].video?.absoluteString == "https://i.imgur.example.test/vid3.mp4")
        #expect(feed.videos[2].thumbnail == nil, "no image in the post")
        #expect(feed.videos[2].username == "" && feed.videos[2].userID == nil)
        // A post with no media is still listed, with nothing to play
        let empty = feed.videos[3]
        #expect(feed.posts[3].media.isEmpty)
        #expect(empty.video == nil && empty.thumbnail == nil && empty.duration == nil)
        #expect(empty.width == nil && empty.height == nil)
        #expect(empty.description == "An album with nothing in it yet")
    }

    @Test(.peerDataIsPresent) func peerFeedMapsEveryPostToAVideo() throws {
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
