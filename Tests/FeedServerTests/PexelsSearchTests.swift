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

    @Test("an accent typed as its own character matches the composed one; a word never runs from one video into the next")
    func bytes() {
        #expect(ids("cre\u{0302}pes") == ["2"], "e + U+0302 is ê")
        #expect(ids("CRÊPES ERIC") == ["2"])
        #expect(ids("tacos\ncrêpes") == [], "the end of video 1's words and the start of video 2's")
        #expect(ids("tasting\n#food") == [])
        #expect(ids("restos") == ["4"], "the last video's last word")
        #expect(ids("street") == ["1"], "the first video's first word")
        #expect(ids("+ +") == ["1", "2", "b", "4"], "no word: every video, as before")
        #expect(PexelsSearch([]).matches("food").isEmpty)
    }

    @Test("the same answers as matching each video's words as Swift strings, on a thousand generated videos and 400 queries")
    func sameAsStrings() {
        var generator = SystemRandomNumberGenerator()
        let syllables = ["ta", "co", "crê", "pe", "Ñu", "fo", "od", "ü", "sa", "mi", "#"]
        func word() -> String { (0..<Int.random(in: 1...3, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        let videos = (0..<1000).map { index in
            Video(id: .int(index), username: word(), description: (0..<3).map { _ in word() }.joined(separator: " "),
                  topic: Bool.random(using: &generator) ? word() : nil, viewers: 0, likes: 0)
        }
        let search = PexelsSearch(videos)
        for _ in 0..<400 {
            let query = (0..<Int.random(in: 1...2, using: &generator)).map { _ in word() }.joined(separator: " ")
            let words = query.lowercased().split(separator: " ")
            let expected = videos.filter { video in
                let text = ([video.description, video.username, video.topic ?? ""] + video.hashtags).joined(separator: " ").lowercased()
                return words.allSatisfy { text.contains($0) }
            }
            #expect(search.matches(query).map(\.id) == expected.map(\.id), "\(query)")
        }
    }
}
