/// A caller's rate-limit bucket after a request, as `X-Ratelimit-*` headers say it.
public struct RateStanding: Sendable, Equatable {
    /// The bucket's size: requests a caller may make at once.
    public var limit: Int
    /// Whole requests left in it.
    public var remaining: Int
    /// When it is full again, seconds since 1970.
    public var reset: Int
}
