import FeedCore
import Foundation

/// `--rate N`: a token bucket per caller. Each caller may make `N` requests a second on average,
/// in bursts of up to `max(N, 1)`; a request that finds the bucket empty is refused with the
/// seconds until it holds a token again. Time comes from a ``WallClock`` the tests move.
final class RateLimiter: Sendable {
    /// What the bucket says of one request.
    enum Decision: Equatable {
        /// Allowed; `remaining` whole requests are left in the bucket.
        case allowed(remaining: Int)
        /// Refused; a token is back after `retryAfter` seconds (at least 1).
        case refused(retryAfter: Int)
    }

    /// Requests per second.
    let rate: Double
    /// The bucket's size.
    let burst: Double
    private let clock: any WallClock
    private let buckets = Locked<[String: (tokens: Double, at: Double)]>([:])
    /// Callers remembered at most; past that, full buckets (idle callers) are forgotten.
    static let tracked = 10_000

    init(rate: Double, clock: any WallClock = SystemWallClock()) {
        self.rate = rate
        burst = max(rate, 1)
        self.clock = clock
    }

    /// The limiter's clock, seconds since 1970.
    var now: Double { clock.now().timeIntervalSince1970 }

    /// The seconds until `caller`'s bucket holds a token again, or nil when it holds one now
    /// (nothing is taken).
    func wait(_ caller: String) -> Int? {
        let now = clock.now().timeIntervalSince1970
        let (rate, burst) = (rate, burst)
        return buckets.withLock { buckets in
            guard let bucket = buckets[caller] else { return nil }
            let tokens = min(burst, bucket.tokens + max(0, now - bucket.at) * rate)
            return tokens >= 1 ? nil : max(1, Int(saturating: ((1 - tokens) / rate).rounded(.up)))
        }
    }

    /// Takes a token from `caller`'s bucket, if it has one.
    func take(_ caller: String) -> Decision {
        let now = clock.now().timeIntervalSince1970
        let (rate, burst) = (rate, burst)
        return buckets.withLock { buckets in
            if buckets.count >= Self.tracked {
                // An idle caller's bucket is full again: forgetting it changes nothing.
                buckets = buckets.filter { $0.value.tokens + (now - $0.value.at) * rate < burst }
            }
            var bucket = buckets[caller] ?? (burst, now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.at) * rate)
            bucket.at = now
            defer { buckets[caller] = bucket }
            guard bucket.tokens >= 1 else {
                return .refused(retryAfter: max(1, Int(saturating: ((1 - bucket.tokens) / rate).rounded(.up))))
            }
            bucket.tokens -= 1
            return .allowed(remaining: Int(saturating: bucket.tokens))
        }
    }
}
