import FeedCore
@testable import FeedServer
import Testing

/// `--rate`'s buckets, on a clock the test moves.
@Suite("RateLimiter")
struct RateLimiterTests {
    @Test("a burst of N, then refused with the seconds until a token is back; refilled at N a second; callers apart")
    func buckets() {
        let clock = ManualWallClock()
        let limiter = RateLimiter(rate: 2, clock: clock)
        #expect(limiter.take("a") == .allowed(remaining: 1))
        #expect(limiter.take("a") == .allowed(remaining: 0))
        #expect(limiter.take("a") == .refused(retryAfter: 1))
        #expect(limiter.take("b") == .allowed(remaining: 1), "another caller has a bucket of its own")
        clock.advance(by: 0.5)
        #expect(limiter.take("a") == .allowed(remaining: 0), "half a second at 2 a second: one token")
        #expect(limiter.take("a") == .refused(retryAfter: 1))
        clock.advance(by: 60)
        #expect(limiter.take("a") == .allowed(remaining: 1), "never more than the burst")
    }

    @Test("a rate under one a second: a burst of one, and Retry-After the whole wait")
    func slow() {
        let clock = ManualWallClock()
        let limiter = RateLimiter(rate: 0.1, clock: clock)
        #expect(limiter.take("a") == .allowed(remaining: 0))
        #expect(limiter.take("a") == .refused(retryAfter: 10))
        clock.advance(by: 4)
        #expect(limiter.take("a") == .refused(retryAfter: 6))
        clock.advance(by: 6)
        #expect(limiter.take("a") == .allowed(remaining: 0))
    }
}
