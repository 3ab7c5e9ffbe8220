import FeedCore

/// Everything that can go wrong in the social catalog: posts, people, follows, comments,
/// blocks and reports. Each message is one line naming the id or field involved; the kind
/// decides the exit status (CLI) and the HTTP status (server).
public enum SocialError: FeedFailure, Equatable {
    /// A description too long or holding a control character: what is wrong, and where.
    case invalidDescription(String)
    /// A field out of its rules (`display_name`, `bio`, `comment`, `note`): its name and the problem.
    case invalidField(String, String)
    /// A write that acts as a person came from a caller who is no user: what it was.
    case needsUser(String)
    /// No recording with this id, or none the caller may publish.
    case unknownRecording(Int64)
    /// The recording has no owner, and no author was named.
    case recordingHasNoOwner(Int64)
    /// The recording is published already, as this post.
    case alreadyPublished(recording: Int64, post: Int64)
    /// No post with this id that the caller may see.
    case unknownPost(Int64)
    /// The caller may see the post but not change it (they are not its author).
    case notAuthor(post: Int64)
    /// No user with this name.
    case unknownUser(String)
    /// Following (or blocking) oneself.
    case selfRelation(String)
    /// One of the two blocked the other: the caller cannot follow or reach this user.
    case blocked(String)
    /// No comment with this id that the caller may see.
    case unknownComment(Int64)
    /// The parent of a reply is itself a reply (one level of replies).
    case replyToReply(Int64)
    /// The parent of a comment is under another post.
    case parentOnOtherPost(parent: Int64, post: Int64)
    /// The post takes no comments: hidden by the admin, or private.
    case closedToComments(post: Int64, why: String)
    /// The caller may see the comment but not delete it.
    case notCommentAuthor(Int64)
    /// The catalog itself failed.
    case store(RollError)

    public var kind: FailureKind {
        switch self {
        case .invalidDescription, .invalidField, .selfRelation, .replyToReply, .parentOnOtherPost, .recordingHasNoOwner: .invalidData
        case .notAuthor, .blocked, .notCommentAuthor: .forbidden
        case .unknownRecording, .unknownPost, .unknownUser, .unknownComment: .notFound
        case .needsUser: .usage
        case .alreadyPublished, .closedToComments: .conflict
        case let .store(error): error.kind
        }
    }

    public var description: String {
        switch self {
        case let .invalidDescription(problem): "description \(problem)"
        case let .invalidField(field, problem): "\(field) \(problem)"
        case let .needsUser(what): "\(what) acts as a user, and the request names none: send a bearer JWT (its sub is the user) or, to a server with no key, the X-Feed-User header"
        case let .unknownRecording(id): "no recording \(id) that you may publish"
        case let .recordingHasNoOwner(id): "recording \(id) has no owner: name the post's author"
        case let .alreadyPublished(recording, post): "recording \(recording) is published already, as post \(post)"
        case let .unknownPost(id): "no post \(id)"
        case let .notAuthor(post): "post \(post) is not yours to change"
        case let .unknownUser(name): "no user \(name)"
        case let .selfRelation(name): "\(name) cannot follow or block themselves"
        case let .blocked(name): "you and \(name) cannot reach each other: one of you blocked the other"
        case let .unknownComment(id): "no comment \(id)"
        case let .replyToReply(id): "comment \(id) is a reply; replies take no replies (reply to its parent)"
        case let .parentOnOtherPost(parent, post): "comment \(parent) is not under post \(post)"
        case let .closedToComments(post, why): "post \(post) takes no comments: \(why)"
        case let .notCommentAuthor(id): "comment \(id) is not yours to delete (its author, the post's author or the admin may)"
        case let .store(error): error.description
        }
    }
}
