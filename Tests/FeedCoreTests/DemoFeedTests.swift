import Testing
@testable import FeedCore
@Test func demoFeedIsEmbedded() { #expect(DemoFeed.videosJSON.count > 1000) }
