import FeedCore
import FeedSocial

/// The social store of a catalog that implements none: every call fails as unavailable, so
/// a server over such a catalog still serves all else.
struct UnavailableSocialStore: SocialStore {
    private var refusal: SocialError { .store(.store(message: "this catalog keeps no posts", kind: .unavailable)) }
    func publish(_ draft: PostDraft) async throws(SocialError) -> SocialPost { throw refusal }
    func post(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost { throw refusal }
    func post(recording: Int64) async throws(SocialError) -> SocialPost? { nil }
    func editPost(id: Int64, viewer: Viewer, text: PostText?, visibility: Visibility?) async throws(SocialError) -> SocialPost { throw refusal }
    func unpublish(id: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost { throw refusal }
    func posts(_ query: PostQuery, viewer: Viewer) async throws(SocialError) -> [SocialPost] { [] }
    func visiblePostCount(_ query: PostQuery, viewer: Viewer, upTo limit: Int) async throws(SocialError) -> Int { 0 }
    func setLike(_ on: Bool, postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost { throw refusal }
    func share(postID: Int64, viewer: Viewer) async throws(SocialError) -> SocialPost { throw refusal }
    func profile(name: String, viewer: Viewer) async throws(SocialError) -> Profile { throw refusal }
    func editProfile(name: String, _ edit: ProfileEdit) async throws(SocialError) -> Profile { throw refusal }
    func setFollow(_ on: Bool, follower: String, followee: String) async throws(SocialError) -> Bool { throw refusal }
    func follows(of name: String, _ direction: FollowDirection, before: Int64?, limit: Int) async throws(SocialError) -> [FollowEntry] { throw refusal }
    func setBlock(_ on: Bool, blocker: String, blocked: String) async throws(SocialError) -> Bool { throw refusal }
    func addComment(postID: Int64, viewer: Viewer, text: String, parent: Int64?) async throws(SocialError) -> PostComment { throw refusal }
    func comment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment { throw refusal }
    func comments(postID: Int64, parent: Int64?, viewer: Viewer, before: Int64?, limit: Int) async throws(SocialError) -> [PostComment] { throw refusal }
    func deleteComment(id: Int64, viewer: Viewer) async throws(SocialError) -> PostComment { throw refusal }
    func report(_ target: Report.Target, viewer: Viewer, reason: Report.Reason, note: String) async throws(SocialError) -> Report { throw refusal }
    func reports(before: Int64?, limit: Int) async throws(SocialError) -> [Report] { throw refusal }
    func setHidden(_ hidden: Bool, _ target: Report.Target) async throws(SocialError) -> Bool { throw refusal }
    func setLivePublish(streamID: Int64, _ draft: LivePublishDraft) async throws(SocialError) { throw refusal }
    func livePublish(streamID: Int64) async throws(SocialError) -> LivePublishDraft? { nil }
    func clearLivePublish(streamID: Int64) async throws(SocialError) {}
}
