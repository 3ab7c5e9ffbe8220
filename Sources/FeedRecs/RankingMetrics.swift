/// How well one ranking found what viewers went on to watch, over a held-out split
/// (``RecsEvaluator``): the mean per viewer of recall@K and NDCG@K, and the share of the
/// held-out watch time that the top K hold.
public struct RankingMetrics: Sendable, Equatable {
    /// Of each viewer's held-out wanted videos, the share in their top K (over at most K).
    public var recall: Double
    /// Normalised discounted cumulative gain at K, the gain being how much the viewer wanted it.
    public var ndcg: Double
    /// The held-out watch time (all viewers) spent on videos in each one's top K, as a share.
    public var watchCaptured: Double

    /// Metrics.
    public init(recall: Double, ndcg: Double, watchCaptured: Double) {
        self.recall = recall
        self.ndcg = ndcg
        self.watchCaptured = watchCaptured
    }
}

/// What ``RecsEvaluator`` measured: the split, then the model's metrics beside popularity's.
public struct EvaluationReport: Sendable, Equatable {
    /// K, the page length the metrics are at.
    public var k: Int
    /// The share of each viewer's events held out (their latest).
    public var holdout: Double
    /// Viewers with something held out that they wanted (those the means are over).
    public var viewers: Int
    /// Videos in the events.
    public var videos: Int
    /// Events trained on, and held out.
    public var trainEvents: Int
    public var heldOutEvents: Int
    /// The trained model's ranking.
    public var model: RankingMetrics
    /// The most wanted videos of the training split, the same for everyone (less what each viewer saw).
    public var popularity: RankingMetrics

    /// A report.
    public init(k: Int, holdout: Double, viewers: Int, videos: Int, trainEvents: Int, heldOutEvents: Int, model: RankingMetrics,
                popularity: RankingMetrics) {
        self.k = k
        self.holdout = holdout
        self.viewers = viewers
        self.videos = videos
        self.trainEvents = trainEvents
        self.heldOutEvents = heldOutEvents
        self.model = model
        self.popularity = popularity
    }
}
