/// Reads LIVEr / LiveStreamAssignment `{"videos": [...]}` and `{"comments": [...]}` files.
///
/// Videos need `id`, `username` and `video`; the rest default (counts 0, text "").
/// Comments need `id`, `username` and `comment`.
enum LiverDecoder {
    /// The videos of the root's `videos` member (required when `required`).
    static func videos(_ root: ObjectRef, _ context: inout DecodeContext, required: Bool = true) throws(StopDecoding) -> [Video] {
        guard let elements = try context.array(root, "videos", required: required) else { return [] }
        var videos: [Video] = []
        videos.reserveCapacity(elements.count)
        for (index, node) in elements.enumerated() {
            guard let item = try context.object(node, path: ItemPath(parent: "videos", index: index)) else { continue }
            if let video = try video(item, &context) { videos.append(video) }
        }
        return videos
    }

    /// The comments of the root's `comments` member (required when `required`).
    static func comments(_ root: ObjectRef, _ context: inout DecodeContext, required: Bool = true) throws(StopDecoding) -> [Comment] {
        guard let elements = try context.array(root, "comments", required: required) else { return [] }
        var comments: [Comment] = []
        comments.reserveCapacity(elements.count)
        for (index, node) in elements.enumerated() {
            guard let item = try context.object(node, path: ItemPath(parent: "comments", index: index)) else { continue }
            let id = try context.id(item, "id", required: true)
            let username = try context.string(item, "username", required: true)
            let picURL = try context.url(item, "picURL")
            let text = try context.string(item, "comment", required: true)
            if let id, let username, let text {
                comments.append(Comment(id: id, username: username, picURL: picURL, comment: text))
            }
        }
        return comments
    }

    private static func video(_ item: ObjectRef, _ context: inout DecodeContext) throws(StopDecoding) -> Video? {
        // Read every field before giving up, so validation reports all of them.
        let id = try context.id(item, "id", required: true)
        let userID = try context.id(item, "userID")
        let username = try context.string(item, "username", required: true)
        let profilePicURL = try context.url(item, "profilePicURL")
        let description = try context.string(item, "description")
        let topic = try context.string(item, "topic")
        let viewers = try context.int(item, "viewers", count: true)
        let likes = try context.int(item, "likes", count: true)
        let videoURL = try context.url(item, "video", required: true)
        let thumbnail = try context.url(item, "thumbnail")
        let duration = try context.double(item, "duration", nonNegative: true)
        let width = try context.int(item, "width", count: true)
        let height = try context.int(item, "height", count: true)
        guard let id, let username, let videoURL else { return nil }
        return Video(
            id: id, userID: userID, username: username, profilePicURL: profilePicURL,
            description: description ?? "", topic: topic, viewers: viewers ?? 0, likes: likes ?? 0,
            video: videoURL, thumbnail: thumbnail, duration: duration, width: width, height: height)
    }
}
