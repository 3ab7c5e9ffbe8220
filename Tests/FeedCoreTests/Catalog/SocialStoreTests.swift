import Foundation
import FeedSocial
import FeedTestSupport
import Testing
@testable import FeedCore

/// The contract of ``SocialStore``, run against every implementation in ``CatalogFactory/all``.
@Suite("SocialStore (every implementation)")
struct SocialStoreTests {
    /// A fresh catalog as a social store, and a way to add a recording of `owner`.
    struct World {
        let catalog: any Catalog
        var social: any SocialStore { catalog as! any SocialStore }
        private let counter = Locked(0)

        func recording(of owner: String?) async throws -> Int64 {
            let n = counter.withLock { $0 += 1; return $0 }
            var recording = CatalogFactory.recording(n)
            recording.owner = owner
            return try await catalog.insert(recording, refusingDuplicates: false).id ?? 0
        }

        /// Publishes a new recording of `author`.
        func post(_ author: String, _ text: String = "", _ visibility: Visibility = .public) async throws -> SocialPost {
            let id = try await recording(of: author)
            return try await social.publish(PostDraft(recordingID: id, viewer: .user(author), text: try PostText(validating: text), visibility: visibility))
        }
    }

    static func world(_ factory: CatalogFactory, clock: ManualWallClock? = nil) async throws -> World {
        World(catalog: try await factory.make(try ScratchFolder(), clock: clock))
    }

    /// Runs `body`, expecting it to throw `expected`.
    static func refused(_ expected: SocialError, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            try await body()
            Issue.record("expected \(expected), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as SocialError {
            #expect(error == expected, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("publishing makes a post of the owner's recording, numbered above any feed's ids, once", arguments: CatalogFactory.all)
    func publish(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let recording = try await world.recording(of: "alice")
        let text = try PostText(validating: "Tacos at noon #Tacos #food with @bob.")
        let post = try await world.social.publish(PostDraft(recordingID: recording, viewer: .user("alice"), text: text))
        #expect(post.id >= SocialPost.firstID)
        #expect(post.author == "alice" && post.recordingID == recording && post.visibility == .public)
        #expect(post.text.hashtags == ["tacos", "food"] && post.text.mentions == ["bob"])
        #expect(try await world.social.profile(name: "alice", viewer: .anonymous).videos == 1)
        #expect(try await world.social.post(recording: recording)?.id == post.id)

        await Self.refused(.alreadyPublished(recording: recording, post: post.id)) {
            _ = try await world.social.publish(PostDraft(recordingID: recording, viewer: .user("alice"), text: text))
        }
        await Self.refused(.unknownRecording(recording)) {  // another user's recording is none of theirs
            _ = try await world.social.publish(PostDraft(recordingID: recording, viewer: .user("bob"), text: text))
        }
        await Self.refused(.unknownRecording(999_999)) {
            _ = try await world.social.publish(PostDraft(recordingID: 999_999, viewer: .admin, text: text))
        }
        let serverOwn = try await world.recording(of: nil)
        await Self.refused(.recordingHasNoOwner(serverOwn)) {
            _ = try await world.social.publish(PostDraft(recordingID: serverOwn, viewer: .admin, text: text))
        }
        let published = try await world.social.publish(PostDraft(recordingID: serverOwn, viewer: .admin, author: "carol", text: text))
        #expect(published.author == "carol" && published.id > post.id)
        #expect(try await world.social.profile(name: "alice", viewer: .anonymous).videos == 1, "a refused publish counted nothing")
    }

    @Test("a description over 2,200 characters or holding a control character is refused, naming where")
    func descriptions() throws {
        #expect(throws: SocialError.invalidDescription("is 2201 characters; at most 2200")) {
            try PostText(validating: String(repeating: "a", count: 2201))
        }
        #expect(throws: SocialError.invalidDescription("has the control character U+0007 at character 4; only line breaks are allowed")) {
            try PostText(validating: "abc\u{07}")
        }
        let text = try PostText(validating: "line one\r\nline two #Two #two mail@example.com @carol_1")
        #expect(text.text == "line one\nline two #Two #two mail@example.com @carol_1")
        #expect(text.hashtags == ["two"] && text.mentions == ["carol_1"])
        #expect(try PostText(validating: String(repeating: "é", count: 2200)).text.count == 2200)
    }

    @Test("who sees which post is VisibilityRule, for every viewer, on generated follows, blocks and posts", arguments: CatalogFactory.all)
    func visibilityMatchesTheRule(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let users = ["ann", "ben", "cat", "dan"]
        var generator = SplitMix64(seed: 56)
        var posts: [SocialPost] = []
        for index in 0..<24 {
            let author = users[index % users.count]
            let visibility = Visibility.allCases[Int.random(in: 0..<3, using: &generator)]
            posts.append(try await world.post(author, "post \(index)", visibility))
        }
        var follows: Set<[String]> = [], blocks: Set<[String]> = []
        for a in users { for b in users where a != b {
            if Bool.random(using: &generator), try await world.social.setFollow(true, follower: a, followee: b) { follows.insert([a, b]) }
        } }
        for _ in 0..<2 {
            let (a, b) = (users.randomElement(using: &generator)!, users.randomElement(using: &generator)!)
            if a != b, try await world.social.setBlock(true, blocker: a, blocked: b) {
                blocks.insert([a, b])
                follows.remove([a, b])
                follows.remove([b, a])
            }
        }
        let hidden = posts[5].id
        #expect(try await world.social.setHidden(true, .post(hidden)))
        let viewers = users.map(Viewer.user) + [.anonymous, .admin, .user("stranger")]
        for viewer in viewers {
            let seen = try await world.social.posts(PostQuery(limit: 100), viewer: viewer).map(\.id)
            let expected = posts.reversed().filter { post in
                let name = viewer.name ?? ""
                return VisibilityRule.allows(author: post.author, visibility: post.visibility, hidden: post.id == hidden, to: viewer,
                                             follows: follows.contains([name, post.author]),
                                             blocked: blocks.contains([name, post.author]) || blocks.contains([post.author, name]))
            }.map(\.id)
            #expect(seen == expected, "\(viewer)")
            for post in posts {
                let one = try? await world.social.post(id: post.id, viewer: viewer)
                #expect((one != nil) == expected.contains(post.id), "post \(post.id) for \(viewer)")
            }
        }
    }

    @Test("the following feed holds the followed users' posts, newest first; a cursor page stays put while posts are added", arguments: CatalogFactory.all)
    func followingFeed(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        var theirs: [Int64] = []
        for index in 0..<6 {
            theirs.append(try await world.post(index % 2 == 0 ? "ann" : "ben", "p\(index)").id)
            _ = try await world.post("cat", "not followed \(index)")
        }
        _ = try await world.post("ben", "followers only", .followers)
        #expect(try await world.social.setFollow(true, follower: "zed", followee: "ann"))
        #expect(try await !world.social.setFollow(true, follower: "zed", followee: "ann"), "following twice changes nothing")
        #expect(try await world.social.setFollow(true, follower: "zed", followee: "ben"))
        let feed = PostQuery(scope: .following, limit: 3)
        let first = try await world.social.posts(feed, viewer: .user("zed"))
        #expect(first.first?.text.text == "followers only", "a follower sees followers-only posts")
        #expect(first.count == 3)
        _ = try await world.post("ann", "newer")
        var query = feed
        query.before = first.last?.id
        let second = try await world.social.posts(query, viewer: .user("zed"))
        #expect(second.map(\.id) == Array(theirs.reversed()[2..<5]), "the page after the cursor is as it was")
        await Self.refused(.needsUser("the following feed")) { _ = try await world.social.posts(feed, viewer: .anonymous) }
    }

    @Test("likes from many users at once through two handles are counted exactly, on the post and on its author", arguments: CatalogFactory.all)
    func concurrentLikes(factory: CatalogFactory) async throws {
        let (one, two) = try await factory.makePair(try ScratchFolder())
        let world = World(catalog: one)
        let post = try await world.post("alice")
        let stores = [one as! any SocialStore, two as! any SocialStore]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in 0..<60 {
                group.addTask { _ = try await stores[user % 2].setLike(true, postID: post.id, viewer: .user("u\(user)")) }
                group.addTask { _ = try await stores[(user + 1) % 2].setLike(true, postID: post.id, viewer: .user("u\(user)")) }
            }
            try await group.waitForAll()
        }
        #expect(try await stores[1].post(id: post.id, viewer: .anonymous).likes == 60, "each user's like once")
        #expect(try await stores[0].profile(name: "alice", viewer: .anonymous).likes == 60)
        let unliked = try await stores[1].setLike(false, postID: post.id, viewer: .user("u0"))
        #expect(unliked.likes == 59 && !unliked.liked)
        #expect(try await stores[0].post(id: post.id, viewer: .user("u1")).liked)
        _ = try await stores[0].unpublish(id: post.id, viewer: .user("alice"))
        let profile = try await stores[0].profile(name: "alice", viewer: .anonymous)
        #expect(profile.likes == 0 && profile.videos == 0, "an unpublished post's likes leave its author's count")
    }

    @Test("follows from many users at once are counted exactly; follow lists page newest first", arguments: CatalogFactory.all)
    func concurrentFollows(factory: CatalogFactory) async throws {
        let (one, two) = try await factory.makePair(try ScratchFolder())
        let stores = [one as! any SocialStore, two as! any SocialStore]
        _ = try await stores[0].editProfile(name: "star", ProfileEdit(displayName: "The Star"))
        for user in 0..<40 { _ = try await stores[user % 2].editProfile(name: "fan\(user)", ProfileEdit()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in 0..<40 {
                group.addTask { _ = try await stores[user % 2].setFollow(true, follower: "fan\(user)", followee: "star") }
                // Each fan is followed back at the same time: two users following each other at once.
                group.addTask { _ = try await stores[(user + 1) % 2].setFollow(true, follower: "star", followee: "fan\(user)") }
            }
            try await group.waitForAll()
        }
        let star = try await stores[0].profile(name: "star", viewer: .user("fan3"))
        #expect(star.followers == 40 && star.following == 40 && star.followed && star.displayName == "The Star")
        #expect(try await stores[1].profile(name: "fan3", viewer: .anonymous).followers == 1)
        let page = try await stores[0].follows(of: "star", .followers, before: nil, limit: 25)
        let rest = try await stores[0].follows(of: "star", .followers, before: page.last?.cursor, limit: 25)
        #expect(page.count == 25 && rest.count == 15)
        #expect(Set((page + rest).map(\.name)) == Set((0..<40).map { "fan\($0)" }))
        await Self.refused(.selfRelation("star")) { _ = try await stores[0].setFollow(true, follower: "star", followee: "star") }
        await Self.refused(.unknownUser("nobody")) { _ = try await stores[0].setFollow(true, follower: "star", followee: "nobody") }
        #expect(try await stores[0].setFollow(false, follower: "fan3", followee: "star"))
        #expect(try await stores[1].profile(name: "star", viewer: .anonymous).followers == 39)
    }

    @Test("a block ends follows either way, refuses a follow back, and hides each one's posts and comments from the other", arguments: CatalogFactory.all)
    func blocks(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let annPost = try await world.post("ann", "ann's")
        let benPost = try await world.post("ben", "ben's")
        _ = try await world.social.addComment(postID: annPost.id, viewer: .user("ben"), text: "from ben", parent: nil)
        _ = try await world.social.addComment(postID: annPost.id, viewer: .user("cat"), text: "from cat", parent: nil)
        #expect(try await world.social.setFollow(true, follower: "ann", followee: "ben"))
        #expect(try await world.social.setFollow(true, follower: "ben", followee: "ann"))
        #expect(try await world.social.setBlock(true, blocker: "ann", blocked: "ben"))
        #expect(try await !world.social.setBlock(true, blocker: "ann", blocked: "ben"))
        let ann = try await world.social.profile(name: "ann", viewer: .anonymous)
        #expect(ann.followers == 0 && ann.following == 0)
        #expect(try await world.social.profile(name: "ann", viewer: .user("ann")).following == 0)
        await Self.refused(.blocked("ann")) { _ = try await world.social.setFollow(true, follower: "ben", followee: "ann") }
        await Self.refused(.unknownPost(annPost.id)) { _ = try await world.social.post(id: annPost.id, viewer: .user("ben")) }
        await Self.refused(.unknownPost(annPost.id)) {
            _ = try await world.social.addComment(postID: annPost.id, viewer: .user("ben"), text: "again", parent: nil)
        }
        #expect(try await world.social.posts(PostQuery(), viewer: .user("ann")).map(\.id) == [annPost.id], "ben's post is gone for ann")
        let comments = try await world.social.comments(postID: annPost.id, parent: nil, viewer: .user("ann"), before: nil, limit: 10)
        #expect(comments.map(\.author) == ["cat"])
        #expect(try await world.social.setBlock(false, blocker: "ann", blocked: "ben"))
        #expect(try await world.social.post(id: benPost.id, viewer: .user("ann")).id == benPost.id)
    }

    @Test("comments and replies: one level, on the same post, counted exactly, deleted with their replies", arguments: CatalogFactory.all)
    func comments(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let post = try await world.post("ann")
        let other = try await world.post("ann", "other")
        let top = try await world.social.addComment(postID: post.id, viewer: .user("ben"), text: "first", parent: nil)
        let reply = try await world.social.addComment(postID: post.id, viewer: .user("cat"), text: "a reply", parent: top.id)
        _ = try await world.social.addComment(postID: post.id, viewer: .user("ann"), text: "thanks", parent: top.id)
        let second = try await world.social.addComment(postID: post.id, viewer: .user("cat"), text: "second", parent: nil)
        #expect(try await world.social.post(id: post.id, viewer: .anonymous).comments == 4)
        let listed = try await world.social.comments(postID: post.id, parent: nil, viewer: .anonymous, before: nil, limit: 10)
        #expect(listed.map(\.id) == [second.id, top.id] && listed.last?.replies == 2)
        let replies = try await world.social.comments(postID: post.id, parent: top.id, viewer: .anonymous, before: nil, limit: 1)
        #expect(replies.map(\.text) == ["thanks"])
        await Self.refused(.replyToReply(reply.id)) {
            _ = try await world.social.addComment(postID: post.id, viewer: .user("ben"), text: "deeper", parent: reply.id)
        }
        await Self.refused(.parentOnOtherPost(parent: top.id, post: other.id)) {
            _ = try await world.social.addComment(postID: other.id, viewer: .user("ben"), text: "elsewhere", parent: top.id)
        }
        await Self.refused(.invalidField("comment", "must not be empty")) {
            _ = try await world.social.addComment(postID: post.id, viewer: .user("ben"), text: " \n", parent: nil)
        }
        await Self.refused(.notCommentAuthor(second.id)) { _ = try await world.social.deleteComment(id: second.id, viewer: .user("ben")) }
        #expect(try await world.social.post(id: post.id, viewer: .anonymous).comments == 4, "refused writes counted nothing")
        _ = try await world.social.deleteComment(id: top.id, viewer: .user("ann"))
        #expect(try await world.social.post(id: post.id, viewer: .anonymous).comments == 1, "a comment goes with its replies")
        let privatePost = try await world.post("ann", "mine", .private)
        await Self.refused(.closedToComments(post: privatePost.id, why: "it is private")) {
            _ = try await world.social.addComment(postID: privatePost.id, viewer: .user("ann"), text: "note", parent: nil)
        }
        _ = try await world.social.setHidden(true, .post(other.id))
        await Self.refused(.closedToComments(post: other.id, why: "a moderator hid it")) {
            _ = try await world.social.addComment(postID: other.id, viewer: .user("ann"), text: "hello?", parent: nil)
        }
        await Self.refused(.unknownPost(other.id)) {
            _ = try await world.social.addComment(postID: other.id, viewer: .user("ben"), text: "hello?", parent: nil)
        }
    }

    @Test("reports are listed for the admin, newest first; a hidden post is its author's and the admin's alone, marked hidden", arguments: CatalogFactory.all)
    func reportsAndHiding(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let post = try await world.post("ann", "spam spam")
        let comment = try await world.social.addComment(postID: post.id, viewer: .user("ann"), text: "buy now", parent: nil)
        let first = try await world.social.report(.post(post.id), viewer: .user("ben"), reason: .spam, note: "")
        let second = try await world.social.report(.comment(comment.id), viewer: .user("cat"), reason: .other, note: "ads")
        #expect(try await world.social.reports(before: nil, limit: 10).map(\.id) == [second.id, first.id])
        #expect(try await world.social.reports(before: second.id, limit: 10).map(\.target) == [.post(post.id)])
        #expect(try await world.social.setHidden(true, .post(post.id)))
        #expect(try await !world.social.setHidden(true, .post(post.id)))
        #expect(try await world.social.posts(PostQuery(), viewer: .user("ben")).isEmpty)
        #expect(try await world.social.posts(PostQuery(), viewer: .anonymous).isEmpty)
        #expect(try await world.social.posts(PostQuery(), viewer: .user("ann")).map(\.hidden) == [true])
        #expect(try await world.social.posts(PostQuery(), viewer: .admin).count == 1)
        await Self.refused(.unknownPost(12)) { _ = try await world.social.setHidden(true, .post(12)) }
        await Self.refused(.unknownPost(post.id)) { _ = try await world.social.report(.post(post.id), viewer: .user("ben"), reason: .spam, note: "") }
    }

    @Test("editing: the author changes description (and its tags) and visibility; nobody else may", arguments: CatalogFactory.all)
    func editing(factory: CatalogFactory) async throws {
        let world = try await Self.world(factory)
        let post = try await world.post("ann", "#old")
        await Self.refused(.notAuthor(post: post.id)) {
            _ = try await world.social.editPost(id: post.id, viewer: .user("ben"), text: nil, visibility: .private)
        }
        let edited = try await world.social.editPost(id: post.id, viewer: .user("ann"), text: try PostText(validating: "#new"), visibility: .followers)
        #expect(edited.text.hashtags == ["new"] && edited.visibility == .followers)
        #expect(try await world.social.posts(PostQuery(tag: "new"), viewer: .admin).map(\.id) == [post.id])
        #expect(try await world.social.posts(PostQuery(tag: "old"), viewer: .admin).isEmpty)
        await Self.refused(.unknownPost(post.id)) { _ = try await world.social.post(id: post.id, viewer: .user("ben")) }
        let profile = try await world.social.editProfile(name: "ann", ProfileEdit(bio: "cook\nand eater", avatarRecording: post.recordingID))
        #expect(profile.bio == "cook\nand eater" && profile.avatarRecording == post.recordingID && profile.displayName == "ann")
        let bens = try await world.recording(of: "ben")
        await Self.refused(.unknownRecording(bens)) { _ = try await world.social.editProfile(name: "ann", ProfileEdit(avatarRecording: bens)) }
    }
}
