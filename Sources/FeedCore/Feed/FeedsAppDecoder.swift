/// Reads FeedsApp album feeds: a root array of Imgur-style posts, each with `media[]`.
///
/// Posts need `id`; media need `id` and `type` (`image` or `video`). Each post maps to one
/// ``Video``: the first video medium (else the first medium) is the playable file, the
/// first image the thumbnail.
enum FeedsAppDecoder {
    /// The posts of the root array and one video per post.
    static func decode(_ root: Int, _ context: inout DecodeContext) throws(StopDecoding) -> (posts: [Post], videos: [Video]) {
        guard context.document.kind(root) == .array else {
            try context.report(at: context.document.offset(root), path: "", "expected an array of posts, found \(context.document.preview(root))")
            return ([], [])
        }
        var posts: [Post] = []
        for (index, node) in context.document.elements(of: root).enumerated() {
            guard let item = try context.object(node, path: ItemPath(parent: "", index: index)) else { continue }
            if let post = try post(item, &context) { posts.append(post) }
        }
        return (posts, posts.map(video(for:)))
    }

    /// The ``Video`` a post stands for in lists.
    static func video(for post: Post) -> Video {
        let playable = post.media.first { $0.type == .video } ?? post.media.first
        let thumbnail = post.media.first { $0.type == .image }
        let description = post.description.isEmpty ? post.title : post.title + " — " + post.description
        let duration = playable.flatMap { $0.type == .video ? $0.metadata.duration : nil }
        var video = Video(
            id: post.id, userID: post.accountID, username: post.accountID?.description ?? "",
            description: description, viewers: post.viewCount, likes: post.upvoteCount,
            duration: duration, width: playable?.width, height: playable?.height)
        video.videoReference = playable?.reference
        video.thumbnailReference = thumbnail?.reference
        return video
    }

    private static func post(_ item: ObjectRef, _ context: inout DecodeContext) throws(StopDecoding) -> Post? {
        let id = try context.id(item, "id", required: true)
        let accountID = try context.id(item, "account_id")
        let title = try context.string(item, "title")
        let description = try context.string(item, "description")
        let viewCount = try context.int(item, "view_count", count: true)
        let upvoteCount = try context.int(item, "upvote_count", count: true)
        let commentCount = try context.int(item, "comment_count", count: true)
        let createdAt = try context.date(item, "created_at")
        let url = try context.url(item, "url")
        var media: [Media] = []
        let mediaPath = item.path.child("media")
        for (index, node) in (try context.array(item, "media") ?? []).enumerated() {
            guard let medium = try context.object(node, path: ItemPath(parent: mediaPath, index: index)) else { continue }
            if let decoded = try self.media(medium, &context) { media.append(decoded) }
        }
        guard let id else { return nil }
        return Post(
            id: id, accountID: accountID, title: title ?? "", description: description ?? "",
            viewCount: viewCount ?? 0, upvoteCount: upvoteCount ?? 0, commentCount: commentCount ?? 0,
            createdAt: createdAt, url: url, media: media)
    }

    private static func media(_ item: ObjectRef, _ context: inout DecodeContext) throws(StopDecoding) -> Media? {
        let id = try context.id(item, "id", required: true)
        var kind: MediaKind?
        if let text = try context.string(item, "type", required: true) {
            kind = MediaKind(rawValue: text)
            if kind == nil, let node = context.document.member("type", of: item.node) {
                try context.report(at: context.document.offset(node), path: item.path.child("type"),
                                   "expected \"image\" or \"video\", found \(context.document.preview(node))")
            }
        }
        let mimeType = try context.string(item, "mime_type")
        let reference = try context.media(item, "url")
        let width = try context.int(item, "width", count: true)
        let height = try context.int(item, "height", count: true)
        let size = try context.int(item, "size", count: true)
        var metadata = Media.Metadata()
        if let meta = try context.object(item, "metadata") {
            metadata.duration = try context.double(meta, "duration", nonNegative: true) ?? 0
            metadata.isLooping = try context.bool(meta, "is_looping") ?? false
            metadata.hasSound = try context.bool(meta, "has_sound") ?? false
        }
        guard let id, let kind else { return nil }
        var media = Media(id: id, type: kind, mimeType: mimeType ?? "", width: width ?? 0,
                          height: height ?? 0, size: size ?? 0, metadata: metadata)
        media.reference = reference
        return media
    }
}
