import FeedTestSupport
import Foundation
import Testing
@testable import FeedCore

@Suite struct PexelsDecoderTests {
    private func response(files: String, withPage: Bool = true) -> [UInt8] {
        Array("""
        {\(withPage ? #""page": 1, "per_page": 15, "total_results": 1, "next_page": null,"# : "")
         "videos": [{"id": 3571264, "width": 1080, "height": 1920, "url": "https://www.pexels.com/video/3571264/",
           "image": "https://images.pexels.com/videos/3571264/p.jpeg", "duration": 33,
           "user": {"id": 1583460, "name": "Ana", "url": "https://www.pexels.com/@ana"},
           "video_files": [\(files)], "video_pictures": []}]}
        """.utf8)
    }

    private func file(_ id: Int, _ quality: String?) -> String {
        let q = quality.map { "\"\($0)\"" } ?? "null"
        return #"{"id": \#(id), "quality": \#(q), "file_type": "video/mp4", "width": null, "height": null, "fps": 29.97, "link": "https://player.vimeo.com/\#(id).mp4"}"#
    }

    @Test func mapsUserImageAndDuration() throws {
        let feed = try FeedLoader.load(bytes: response(files: file(1, "hd")), source: "pexels.json")
        #expect(feed.format == .pexels)
        let video = try #require(feed.videos.first)
        #expect(video.id == .int(3571264))
        #expect(video.username == "Ana")
        #expect(video.userID == .int(1583460))
        #expect(video.thumbnail?.absoluteString == "https://images.pexels.com/videos/3571264/p.jpeg")
        #expect(video.duration == 33)
        #expect((video.width, video.height, video.likes, video.viewers) == (1080, 1920, 0, 0))
    }

    @Test(arguments: [
        (["uhd", "sd", "hd", "hls"], 3), (["uhd", "hls", "sd"], 3), (["uhd", "hls"], 2), (["uhd", nil], 1),
    ] as [([String?], Int)])
    func choosesHDThenSDThenHLSThenFirst(qualities: [String?], expectedID: Int) throws {
        let files = qualities.enumerated().map { file($0.offset + 1, $0.element) }.joined(separator: ",")
        let video = try #require(try FeedLoader.load(bytes: response(files: files), source: "p.json").videos.first)
        #expect(video.video?.absoluteString == "https://player.vimeo.com/\(expectedID).mp4")
    }

    @Test func ownResponsePicksHDThenSDThenHLSThenTheFirstFile() throws {
        // Given the project's Pexels fixture, whose four videos hold each case of the pick
        let feed = try FeedLoader.load(path: FormatFixture.pexels.path)
        // Then the first hd, else sd, else hls, else the first file plays
        #expect(feed.format == .pexels)
        #expect(feed.videos.map(\.id) == [1001, 1002, 1003, 1004].map(FeedID.int))
        #expect(feed.videos.map { $0.video?.absoluteString } == [
            "https://videos.pexels.example.test/1001-hd.mp4",
            "https://videos.pexels.example.test/1002-sd.mp4",
            "https://videos.pexels.example.test/1003.m3u8",
            "https://videos.pexels.example.test/1004-a.webm",
        ])
        #expect(feed.warnings.isEmpty)
    }

    @Test func ownResponseMapsUsersImagesAndMissingFields() throws {
        let videos = try FeedLoader.load(path: FormatFixture.pexels.path).videos
        // user{} gives the user id and name; a user without a name gives ""
        #expect(videos.map(\.userID) == [42, 43, 43, 44].map(FeedID.int))
        #expect(videos.map(\.username) == ["Zoë Ångström", "Kai", "Kai", ""])
        // image is the thumbnail (not a video_pictures entry); the last video has neither
        #expect(videos.map { $0.thumbnail?.absoluteString } == [
            "https://images.pexels.example.test/videos/1001/p.jpeg",
            "https://images.pexels.example.test/videos/1002/p.jpeg",
            "https://images.pexels.example.test/videos/1003/p.jpeg",
            nil,
        ])
        #expect(videos.map(\.duration) == [15, 7.5, 30, nil])
        #expect(videos.map(\.width) == [1080, 1920, 1080, nil])
        #expect(videos.map(\.height) == [1920, 1080, 1080, nil])
        // Pexels has no counts, topic or text
        #expect(videos.allSatisfy { $0.likes == 0 && $0.viewers == 0 && $0.topic == nil && $0.description.isEmpty })
    }

    @Test func detectedByVideoFilesWithoutPage() throws {
        let feed = try FeedLoader.load(bytes: response(files: file(1, "sd"), withPage: false), source: "p.json")
        #expect(feed.format == .pexels)
    }

    @Test func missingLinkIsReportedInTheNestedPath() throws {
        let bytes = response(files: #"{"id": 9, "quality": "hd"}"#)
        let problems = FeedLoader.validate(bytes: bytes, source: "p.json")
        #expect(problems.map(\.path) == ["videos[0].video_files[0].link"])
        #expect(problems.first?.message == #"missing required field "link""#)
    }
}
