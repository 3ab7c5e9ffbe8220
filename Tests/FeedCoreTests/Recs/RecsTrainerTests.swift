import Foundation
import Testing
@testable import FeedRecs

/// ``RecsTrainer`` and ``RecsModel``: co-watching finds the videos watched together; a model's
/// bytes read back as written, and damaged ones are refused.
@Suite("RecsTrainer")
struct RecsTrainerTests {
    static func model(_ world: TasteWorld, events: [StoredEvent]) -> RecsModel {
        let videos = Array(Set(events.map(\.video))).sorted()
        let now = events.map(\.at).max() ?? 0
        let facts = videos.map { PostFact(id: $0, author: "author-\($0 % 7)", createdAt: now, hashtags: $0 >= 1000 ? ["c\($0 / 1000 - 1)"] : []) }
        let trainer = RecsTrainer()
        let accumulator = EventAccumulator(videos: videos, now: now, halfLife: trainer.halfLife, trendHalfLife: trainer.trendHalfLife,
                                           trendWindow: trainer.trendWindow)
        accumulator.add(events)
        return trainer.build(facts: facts, from: accumulator)
    }

    @Test("a video's neighbours are its own cluster's; each hashtag's best are its videos; what many watch now trends")
    func coWatching() {
        let world = TasteWorld(clusters: 3, viewersPerCluster: 12, videosPerCluster: 16)
        let model = Self.model(world, events: world.events())
        for c in 0..<3 {
            let video = world.video(cluster: c, 0)
            let similar = model.similar(to: video, count: 10)
            #expect(similar.count == 10)
            let own = similar.filter { $0.video / 1000 == Int64(c + 1) }.count
            #expect(own >= 9, "video \(video): \(similar)")
            #expect(zip(similar, similar.dropFirst()).allSatisfy { $0.similarity >= $1.similarity })
            let tag = model.tagIndex["c\(c)"]!
            #expect(model.topOfTag(tag).allSatisfy { model.videos[Int($0)] / 1000 == Int64(c + 1) })
        }
        #expect(!model.trendingVideos.isEmpty)
        // Skipped videos count against: a cluster's own are watched 0.9, so they are of better quality.
        #expect((model.quality(of: world.video(cluster: 0, 1)) ?? 0) > (model.quality(of: TasteWorld.popular[0]) ?? 1))
    }

    @Test("a model's bytes read back as the same model; cut or changed bytes are refused, naming the version")
    func bytes() throws {
        let world = TasteWorld(clusters: 2, viewersPerCluster: 5, videosPerCluster: 8)
        var model = Self.model(world, events: world.events())
        model.info.version = 7
        let bytes = model.encoded()
        let read = try RecsModel(decoding: bytes, info: model.info)
        #expect(read.videos == model.videos && read.neighbours == model.neighbours && read.similarity == model.similarity)
        #expect(read.quality == model.quality && read.trending == model.trending && read.tags == model.tags && read.authors == model.authors)
        #expect(throws: RecsError.unreadableModel(version: 7, "cut short or damaged")) { try RecsModel(decoding: Array(bytes.dropLast()), info: model.info) }
        #expect(throws: RecsError.unreadableModel(version: 7, "not a model (no FEEDRECS header)")) { try RecsModel(decoding: [1, 2, 3], info: model.info) }
        var changed = bytes
        // The first neighbour index (after the header's arrays) out of range.
        let neighbours = model.neighbours
        if let first = neighbours.first {
            let needle = withUnsafeBytes(of: first.littleEndian, Array.init)
            let place = Self.firstIndex(of: needle + withUnsafeBytes(of: neighbours[1].littleEndian, Array.init), in: changed)
            if let place {
                changed.replaceSubrange(place..<place + 4, with: withUnsafeBytes(of: Int32(99_999).littleEndian, Array.init))
                #expect(throws: RecsError.unreadableModel(version: 7, "its indexes are out of range")) { try RecsModel(decoding: changed, info: model.info) }
            }
        }
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test("TopK keeps the best, best first, ties to the smaller item")
    func topK() {
        var top = TopK(capacity: 3)
        for (score, item) in [(0.5, 1), (0.9, 2), (0.1, 3), (0.9, 0), (0.7, 4), (.nan, 5)] as [(Float, Int32)] { top.offer(score, item) }
        #expect(top.sorted().map(\.1) == [0, 2, 4])
    }
}
