import FeedCore

extension WebhookEvent {
    /// `video.published`: the post's id, recording, author and visibility.
    public static func published(_ post: SocialPost) -> WebhookEvent {
        WebhookEvent(.videoPublished, data: object([("id", "\(post.id)"), ("recording_id", "\(post.recordingID)"),
                                                   ("author", quoted(post.author)), ("visibility", quoted(post.visibility.rawValue))]))
    }

    /// `video.removed`: the post's id, recording and author, and who removed it (null: the admin).
    public static func removed(_ post: SocialPost, by viewer: Viewer) -> WebhookEvent {
        WebhookEvent(.videoRemoved, data: object([("id", "\(post.id)"), ("recording_id", "\(post.recordingID)"),
                                                 ("author", quoted(post.author)), ("by", viewer.name.map(quoted) ?? "null")]))
    }

    /// `comment.created`: the comment's id, post, parent and author.
    public static func commented(_ comment: PostComment) -> WebhookEvent {
        WebhookEvent(.commentCreated, data: object([("id", "\(comment.id)"), ("video_id", "\(comment.postID)"),
                                                   ("parent", comment.parentID.map(String.init) ?? "null"), ("author", quoted(comment.author))]))
    }

    /// `report.created`: the report's id, what it is about, who filed it and why.
    public static func reported(_ report: Report) -> WebhookEvent {
        let (target, id): (String, Int64) = switch report.target {
        case .post(let id): ("video", id)
        case .comment(let id): ("comment", id)
        }
        return WebhookEvent(.reportCreated, data: object([("id", "\(report.id)"), ("target", quoted(target)), ("target_id", "\(id)"),
                                                         ("reporter", quoted(report.reporter)), ("reason", quoted(report.reason.rawValue))]))
    }

    /// `user.followed`: who followed whom.
    public static func followed(_ follower: String, _ followee: String) -> WebhookEvent {
        WebhookEvent(.userFollowed, data: object([("follower", quoted(follower)), ("followee", quoted(followee))]))
    }

    /// A JSON object of already-encoded values, in order.
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        JSONOutput.write(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
