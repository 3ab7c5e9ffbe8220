/// The one rule of who sees a post, stated once. Both catalogs apply it inside the query that
/// pages (never after paging, so a page is never short), and the contract suite checks their
/// answers against ``allows(_:to:follows:blocked:)`` on generated data.
///
/// A post is seen by:
/// - the admin, always (hidden ones included: moderation works on them);
/// - its author, always (a hidden one is marked hidden);
/// - anyone else only when it is not hidden, neither of the two has blocked the other, and it is
///   `public`, or `followers` and the viewer follows the author. Nobody but those sees a
///   `private` post; a viewer who is no user sees only public ones.
public enum VisibilityRule {
    /// Whether `viewer` sees a post by `author` with `visibility`, hidden or not, given
    /// whether the viewer follows the author and whether either blocked the other.
    public static func allows(author: String, visibility: Visibility, hidden: Bool, to viewer: Viewer,
                              follows: Bool, blocked: Bool) -> Bool {
        if viewer.isAdmin || viewer.name == author { return true }
        if hidden { return false }
        guard viewer.name != nil else { return visibility == .public }
        if blocked { return false }
        switch visibility {
        case .public: return true
        case .followers: return follows
        case .private: return false
        }
    }

    /// ``allows(author:visibility:hidden:to:follows:blocked:)`` for `post`.
    public static func allows(_ post: SocialPost, to viewer: Viewer, follows: Bool, blocked: Bool) -> Bool {
        allows(author: post.author, visibility: post.visibility, hidden: post.hidden, to: viewer, follows: follows, blocked: blocked)
    }
}
