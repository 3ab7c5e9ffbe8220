import FeedCore
import Testing
@testable import FeedServer

@Suite("Pexels search over the feed")
struct PexelsSearchTests {
    private let videos = [
        Video(id: .int(1), username: "Amanda", description: "Street #Tacos at night", topic: "tasting", viewers: 10, likes: 5),
        Video(id: .int(2), username: "eric", description: "Crêpes", topic: nil, viewers: 30, likes: 5),
        Video(id: .string("b"), username: "sonia", description: "#food tour", topic: "Tasting", viewers: 20, likes: 9),
        Video(id: .int(4), username: "amanda", description: "", topic: "restos", viewers: 30, likes: 1),
    ]

    private func ids(_ query: String) -> [String] {
        PexelsSearch(videos).matches(query).map(\.id.description)
    }

    @Test("every word, anywhere in description, username, topic or hashtags, any case, in feed order")
    func words() {
        #expect(ids("tasting") == ["1", "b"])
        #expect(ids("AMANDA") == ["1", "4"])
        #expect(ids("amanda tacos") == ["1"])
        #expect(ids("amanda+restos") == ["4"])
        #expect(ids("crêpes") == ["2"])
        #expect(ids("food tour sonia") == ["b"])
        #expect(ids("tast") == ["1", "b"], "a word matches inside a longer one, as Pexels' search does")
        #expect(ids("sushi") == [])
        #expect(ids("amanda sushi") == [])
    }
}
