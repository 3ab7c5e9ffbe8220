import Testing
@testable import FeedCore

@Suite struct FeedQueryTests {
    private let videos = [
        Video(id: .int(3), username: "Amanda", description: "#Tacos #food", topic: "tasting", viewers: 10, likes: 5),
        Video(id: .int(1), username: "eric", description: "#french", topic: "restos", viewers: 30, likes: 5),
        Video(id: .string("b"), username: "sonia", description: "#food", topic: "Tasting", viewers: 20, likes: 9),
        Video(id: .int(2), username: "amanda", description: "", topic: nil, viewers: 30, likes: 1),
    ]

    private func ids(_ query: FeedQuery) -> [String] {
        query.apply(to: videos).map(\.id.description)
    }

    @Test func defaultKeepsFileOrder() {
        #expect(ids(FeedQuery()) == ["3", "1", "b", "2"])
        #expect(ids(FeedQuery(reverse: true)) == ["2", "b", "1", "3"])
    }

    @Test func countsSortHighestFirstAndStable() {
        #expect(ids(FeedQuery(sort: .likes)) == ["b", "3", "1", "2"])
        #expect(ids(FeedQuery(sort: .viewers)) == ["1", "2", "b", "3"])
        #expect(ids(FeedQuery(sort: .likes, reverse: true)) == ["2", "1", "3", "b"])
    }

    @Test func idSortsAscendingNumbersFirst() {
        #expect(ids(FeedQuery(sort: .id)) == ["1", "2", "3", "b"])
    }

    @Test func filtersAreCaseInsensitiveAndExact() {
        #expect(ids(FeedQuery(topic: "TASTING")) == ["3", "b"])
        #expect(ids(FeedQuery(topic: "tast")) == [])
        #expect(ids(FeedQuery(user: "amanda")) == ["3", "2"])
        #expect(ids(FeedQuery(tag: "tacos")) == ["3"])
        #expect(ids(FeedQuery(tag: "#FOOD")) == ["3", "b"])
        #expect(ids(FeedQuery(tag: "###food")) == ["3", "b"], "every leading # goes, not only the first")
        #expect(FeedQuery(tag: "##").problem() != nil && FeedQuery(tag: "#a").problem() == nil)
        #expect(ids(FeedQuery(topic: "tasting", tag: "food", limit: 1)) == ["3"])
    }

    @Test func offsetAndLimitPageTheSortedList() {
        #expect(ids(FeedQuery(sort: .id, limit: 2, offset: 1)) == ["2", "3"])
        #expect(ids(FeedQuery(offset: 10)) == [])
        // 0 is all, as `feed list --limit 0` and `GET /videos?limit=0` say.
        #expect(ids(FeedQuery(limit: 0)) == ids(FeedQuery()))
        #expect(ids(FeedQuery(limit: 99, offset: 3)) == ["2"])
        // Any Int a request or a flag can carry: no overflow (`?offset=…&limit=9223372036854775807`).
        #expect(ids(FeedQuery(limit: .max, offset: 1)).count == 3)
        #expect(ids(FeedQuery(limit: .max, offset: .max)) == [])
        #expect(ids(FeedQuery(limit: .min, offset: .min)) == [])
    }
}
