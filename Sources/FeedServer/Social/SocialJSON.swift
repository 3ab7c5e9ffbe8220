import FeedCore
import FeedSocial
import Foundation
import HTTPTypes
import Hummingbird

/// The social routes' JSON: a post in LIVEr's video shape plus what a post has, a profile, a
/// comment, a follow and a report, field names as openapi.yaml spells them.
enum SocialJSON {
    /// On an open server, the user a request acts as.
    static let userHeader = HTTPField.Name("X-Feed-User")!

    /// A time as every answer writes one (RFC 3339, milliseconds, UTC).
    static func time(_ date: Date) -> String { Recording.iso8601(date) }

    /// A post, with its media's links: LIVEr's video fields, then a post's own.
    static func encode(_ post: SocialPost, links: PostLinks, into out: inout [UInt8]) {
        let poster = links.poster(post)
        out.append(contentsOf: #"{"id":\#(post.id),"userID":null,"username":"#.utf8)
        JSONBytes.string(post.author, into: &out)
        out.append(contentsOf: #","profilePicURL":null,"description":"#.utf8)
        JSONBytes.string(post.text.text, into: &out)
        out.append(contentsOf: #","topic":null,"viewers":0,"likes":\#(post.likes),"video":"#.utf8)
        JSONBytes.string(links.video(post), into: &out)
        out.append(contentsOf: #","preload_bytes":"#.utf8)
        out.append(contentsOf: (links.preloadBytes(post).map(String.init) ?? "null").utf8)
        out.append(contentsOf: #","thumbnail":"#.utf8)
        JSONBytes.string(poster, into: &out)
        out.append(contentsOf: #","author":"#.utf8)
        JSONBytes.string(post.author, into: &out)
        out.append(contentsOf: #","recording":\#(post.recordingID),"created_at":"#.utf8)
        JSONBytes.string(time(post.createdAt), into: &out)
        out.append(contentsOf: #","comments":\#(post.comments),"shares":\#(post.shares),"views":\#(post.views),"visibility":"\#(post.visibility.rawValue)""#.utf8)
        out.append(contentsOf: #","duration":"#.utf8)
        out.append(contentsOf: (post.media.duration.isFinite ? post.media.duration.description : "null").utf8)
        out.append(contentsOf: #","width":\#(post.media.width),"height":\#(post.media.height),"poster_url":"#.utf8)
        JSONBytes.string(poster, into: &out)
        out.append(contentsOf: #","hls_url":"#.utf8)
        if let hls = links.hls(post) { JSONBytes.string(hls, into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","hashtags":"#.utf8)
        strings(post.text.hashtags, into: &out)
        out.append(contentsOf: #","mentions":"#.utf8)
        strings(post.text.mentions, into: &out)
        out.append(contentsOf: #","liked":\#(post.liked),"author_followed":\#(post.followed),"hidden":\#(post.hidden)}"#.utf8)
    }

    /// One post as a response.
    static func response(_ post: SocialPost, links: PostLinks, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var out: [UInt8] = []
        encode(post, links: links, into: &out)
        return JSONBytes.response(out + [0x0A], status: status, headers: headers)
    }

    /// A JSON array of strings.
    static func strings(_ values: [String], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONBytes.string(value, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `{"KEY":[…],"next_cursor":…}`: a page of `items`, each written by `encode`.
    static func list<Item>(_ key: String, _ items: [Item], next: String?, _ encode: (Item, inout [UInt8]) -> Void) -> [UInt8] {
        var out = Array(#"{"\#(key)":["#.utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(item, &out)
        }
        out.append(contentsOf: #"],"next_cursor":"#.utf8)
        cursor(next, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// `{"videos":[…],"next_cursor":…}` of posts.
    static func page(_ posts: [SocialPost], next: String?, links: PostLinks) -> [UInt8] {
        list("videos", posts, next: next) { post, out in encode(post, links: links, into: &out) }
    }

    /// A cursor, or null.
    static func cursor(_ next: String?, into out: inout [UInt8]) {
        if let next { JSONBytes.string(next, into: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    /// A profile, the avatar as its recording's poster.
    static func encode(_ profile: Profile, links: MediaLinks, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"name":"#.utf8)
        JSONBytes.string(profile.name, into: &out)
        out.append(contentsOf: #","display_name":"#.utf8)
        JSONBytes.string(profile.displayName, into: &out)
        out.append(contentsOf: #","bio":"#.utf8)
        JSONBytes.string(profile.bio, into: &out)
        out.append(contentsOf: #","avatar_url":"#.utf8)
        if let avatar = profile.avatarRecording { JSONBytes.string(links.local("/media/roll/\(avatar)/thumb.jpg"), into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","followers":\#(profile.followers),"following":\#(profile.following),"videos":\#(profile.videos),"likes":\#(profile.likes)"#.utf8)
        out.append(contentsOf: #","created_at":"#.utf8)
        JSONBytes.string(time(profile.createdAt), into: &out)
        out.append(contentsOf: #","followed":\#(profile.followed),"blocked":\#(profile.blocked)}"#.utf8)
    }

    /// A comment.
    static func encode(_ comment: PostComment, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":\#(comment.id),"video":\#(comment.postID),"parent":"#.utf8)
        out.append(contentsOf: (comment.parentID.map(String.init) ?? "null").utf8)
        out.append(contentsOf: #","username":"#.utf8)
        JSONBytes.string(comment.author, into: &out)
        out.append(contentsOf: #","comment":"#.utf8)
        JSONBytes.string(comment.text, into: &out)
        out.append(contentsOf: #","created_at":"#.utf8)
        JSONBytes.string(time(comment.createdAt), into: &out)
        out.append(contentsOf: #","replies":\#(comment.replies),"hidden":\#(comment.hidden)}"#.utf8)
    }

    /// `{"comments":[…],"next_cursor":…}`.
    static func comments(_ comments: [PostComment], next: String?) -> [UInt8] {
        list("comments", comments, next: next) { comment, out in encode(comment, into: &out) }
    }

    /// `{"users":[…],"next_cursor":…}` of a follow list.
    static func follows(_ entries: [FollowEntry], next: String?) -> [UInt8] {
        list("users", entries, next: next) { entry, out in
            out.append(contentsOf: #"{"name":"#.utf8)
            JSONBytes.string(entry.name, into: &out)
            out.append(contentsOf: #","display_name":"#.utf8)
            JSONBytes.string(entry.displayName, into: &out)
            out.append(contentsOf: #","since":"#.utf8)
            JSONBytes.string(time(entry.since), into: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A report.
    static func encode(_ report: Report, into out: inout [UInt8]) {
        let (kind, id): (String, Int64) = switch report.target {
        case .post(let id): ("video", id)
        case .comment(let id): ("comment", id)
        }
        out.append(contentsOf: #"{"id":\#(report.id),"target":"\#(kind)","target_id":\#(id),"reporter":"#.utf8)
        JSONBytes.string(report.reporter, into: &out)
        out.append(contentsOf: #","reason":"\#(report.reason.rawValue)","note":"#.utf8)
        JSONBytes.string(report.note, into: &out)
        out.append(contentsOf: #","created_at":"#.utf8)
        JSONBytes.string(time(report.createdAt), into: &out)
        out.append(UInt8(ascii: "}"))
    }
}
