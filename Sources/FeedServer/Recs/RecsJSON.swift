import FeedRecs
import FeedSocial

/// For You's JSON: a post as every listing writes it, plus why it was picked.
enum RecsJSON {
    /// A recommendation: the post's object with `reason`, `reason_video` and `reason_topic`.
    static func encode(_ item: Recommendation, links: PostLinks, into out: inout [UInt8]) {
        SocialJSON.encode(item.post, links: links, into: &out)
        // Reopen the post's object for the reason's fields.
        if out.last == UInt8(ascii: "}") { out.removeLast() }
        out.append(contentsOf: #","reason":"\#(item.reason.name)","reason_video":"#.utf8)
        if case let .similarTo(video) = item.reason { out.append(contentsOf: String(video).utf8) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","reason_topic":"#.utf8)
        if case let .topic(tag) = item.reason { JSONBytes.string(tag, into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(UInt8(ascii: "}"))
    }
}
