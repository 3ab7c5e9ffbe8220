/// Reads LIVEr / LiveStreamAssignment `{"videos": [...]}` and `{"comments": [...]}` files.
///
/// Videos need `id`, `username` and `video` (a URL or a file path, as are `thumbnail`s); the
/// rest default (counts 0, text "").
/// Comments need `id`, `username` and `comment`.
enum LiverDecoder {
    /// The videos of the root's `videos` member (required when `required`).
    static func videos(_ root: ObjectRef, _ context: inout DecodeContext, required: Bool = true) throws(StopDecoding) -> [Video] {
        try context.objects(root, "videos", required: required, video)
    }

    /// The comments of the root's `comments` member (required when `required`).
    static func comments(_ root: ObjectRef, _ context: inout DecodeContext, required: Bool = true) throws(StopDecoding) -> [Comment] {
        try context.objects(root, "comments", required: required, comment)
    }

    private static func comment(_ item: ObjectRef, _ context: inout DecodeContext) throws(StopDecoding) -> Comment? {
        let id = try context.id(item, "id", required: true)
        let username = try context.string(item, "username", required: true)
        let picURL = try context.url(item, "picURL")
        let text = try context.string(item, "comment", required: true)
        guard let id, let username, let text else { return nil }
        return Comment(id: id, username: username, picURL: picURL, comment: text)
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
        let videoReference = try context.media(item, "video", required: true)
        let thumbnail = try context.media(item, "thumbnail")
        let duration = try context.double(item, "duration", nonNegative: true)
        let width = try context.int(item, "width", count: true)
        let height = try context.int(item, "height", count: true)
        guard let id, let username, let videoReference else { return nil }
        var video = Video(
            id: id, userID: userID, username: username, profilePicURL: profilePicURL,
            description: description ?? "", topic: topic, viewers: viewers ?? 0, likes: likes ?? 0,
            duration: duration, width: width, height: height)
        video.videoReference = videoReference
        video.thumbnailReference = thumbnail
        return video
    }
}
