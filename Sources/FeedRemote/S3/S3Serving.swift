import Foundation

/// How `feed serve` gives players media kept in a bucket (`--media-serve`, `--media-public-url`).
public enum S3Serving: Sendable, Equatable {
    /// A redirect (307) to a presigned URL of the object, expiring with the server's link: the
    /// bucket sends the bytes. Browsers then need the bucket's CORS rules (docs/machines.md).
    case redirect
    /// A redirect to `base/KEY` (a CDN or a public bucket in front of the store): no signature.
    case publicURL(URL)
    /// The server sends the bytes itself, with ranges, from a local copy fetched on first use.
    case proxy
}
