import Testing
@testable import FeedCore

/// ``VideoIndex`` finds what ``Feed/video(id:)`` finds, on ids that collide in every way a feed
/// file can make them collide.
@Suite struct VideoIndexTests {
    private func video(_ id: FeedID, _ name: String) -> Video {
        Video(id: id, username: name, description: "", topic: nil, viewers: 0, likes: 0)
    }

    private func expectSame(_ videos: [Video], _ queries: [String]) {
        let feed = Feed(source: "t.json", format: .liver, videos: videos)
        let index = VideoIndex(videos)
        for text in queries {
            let walked = feed.video(id: text), found = index.video(id: text)
            #expect(walked?.username == found?.username && (walked == nil) == (found == nil), "\(text): \(String(describing: walked?.username)) vs \(String(describing: found?.username))")
        }
    }

    @Test func collidingIdsGiveTheFirstInFileOrder() {
        let queries = ["42", "0042", "042", "+42", "-4", "b", "7", "x", "", " 42"]
        expectSame([video(.string("42"), "text first"), video(.int(42), "number second"), video(.string("0042"), "padded"),
                    video(.int(-4), "negative"), video(.string("b"), "b"), video(.int(7), "seven"), video(.int(7), "seven again")], queries)
        expectSame([video(.int(42), "number first"), video(.string("42"), "text second"), video(.string("b"), "b"),
                    video(.string("b"), "b again")], queries)
        #expect(VideoIndex([video(.int(42), "n"), video(.string("42"), "s")]).video(id: "42")?.username == "n")
        #expect(VideoIndex([video(.string("42"), "s"), video(.int(42), "n")]).video(id: "42")?.username == "s")
        #expect(VideoIndex([video(.int(42), "n")]).video(id: "0042") == nil)
        #expect(VideoIndex([]).video(id: "1") == nil)
    }

    @Test func agreesWithTheWalkOnRandomFeeds() {
        var seed: UInt64 = 20261126
        func next(_ bound: Int) -> Int {  // SplitMix64
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        let texts = ["1", "01", "2", "10", "-1", "a", "A", "1a", "9223372036854775807", "9223372036854775808"]
        for round in 0..<20 {
            let videos = (0..<(50 + next(200))).map { n -> Video in
                let text = texts[next(texts.count)]
                return video(next(2) == 0 ? FeedID(parsing: text) : .string(text), "\(round)-\(n)")
            }
            expectSame(videos, texts + ["3", "", "+1"])
            // Feed.videos(ids:) walks for a few ids and indexes for more: the same answers either way.
            let feed = Feed(source: "t.json", format: .liver, videos: videos)
            for queries in [Array(texts.prefix(3)), texts + ["3", "", "+1"]] {
                #expect(feed.videos(ids: queries).map { $0?.username } == queries.map { feed.video(id: $0)?.username })
            }
        }
    }
}
