/// What the ranking knows of a post without its media: who made it, when, its hashtags and
/// how often it was played and liked. Candidates are ranked on these; the page then reads the
/// posts themselves, under the visibility rule.
public struct PostFact: Sendable, Equatable {
    /// The post's id.
    public var id: Int64
    /// Its author.
    public var author: String
    /// When it was published, in seconds since 1970.
    public var createdAt: Double
    /// Its plays (`watch` events), exact.
    public var views: Int64
    /// Its likes, exact.
    public var likes: Int64
    /// Its hashtags, lowercased: the topics it is about.
    public var hashtags: [String]

    /// A post's facts.
    public init(id: Int64, author: String, createdAt: Double, views: Int64 = 0, likes: Int64 = 0, hashtags: [String] = []) {
        self.id = id
        self.author = author
        self.createdAt = createdAt
        self.views = views
        self.likes = likes
        self.hashtags = hashtags
    }
}
