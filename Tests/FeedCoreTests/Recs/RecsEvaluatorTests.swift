import Testing
@testable import FeedRecs

/// ``RecsEvaluator`` on a small fixed population whose tastes co-watching can learn: the model
/// finds what each viewer went on to watch far better than the most popular videos do.
@Suite("RecsEvaluator")
struct RecsEvaluatorTests {
    @Test("on clustered tastes the model beats popularity on recall@20, NDCG@20 and watch time captured")
    func beatsPopularity() throws {
        let world = TasteWorld(clusters: 4, viewersPerCluster: 15, videosPerCluster: 40)
        let events = world.events()
        let report = try RecsEvaluator(holdout: 0.2, k: 20).evaluate(events)
        #expect(report.viewers == 60)
        #expect(report.videos == 4 * 40 + 4)
        #expect(report.trainEvents + report.heldOutEvents == events.count)
        #expect(report.model.recall > 0.5, "\(report.model)")
        #expect(report.model.recall > 2 * report.popularity.recall, "\(report.model) against \(report.popularity)")
        #expect(report.model.ndcg > 2 * report.popularity.ndcg)
        #expect(report.model.watchCaptured > report.popularity.watchCaptured)
        #expect((0...1).contains(report.model.watchCaptured) && (0...1).contains(report.popularity.recall))
    }

    @Test("the same events give the same report; a holdout outside 0…1 is refused")
    func deterministic() throws {
        let events = TasteWorld(clusters: 2, viewersPerCluster: 6, videosPerCluster: 12).events()
        let evaluator = try RecsEvaluator(holdout: 0.25)
        #expect(evaluator.evaluate(events) == evaluator.evaluate(events))
        #expect(throws: RecsError.invalidParameter("holdout", "must be between 0 and 1, not 1.0")) { try RecsEvaluator(holdout: 1) }
    }
}
