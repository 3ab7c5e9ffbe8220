import Foundation

/// Reads a Pexels `/videos/search` response: `{"page", "per_page", "videos": [...]}`.
///
/// Videos need `id` and `video_files`; each file needs `link`. The playable file is chosen
/// as the apps do: `quality` hd, then sd, then hls, then the first file.
enum PexelsDecoder {
    /// The videos of the response.
    static func videos(_ root: ObjectRef, _ context: inout DecodeContext) throws(StopDecoding) -> [Video] {
        try context.objects(root, "videos", required: true, video)
    }

    private struct File {
        var quality: String?
        var link: MediaReference
    }

    private static func video(_ item: ObjectRef, _ context: inout DecodeContext) throws(StopDecoding) -> Video? {
        let id = try context.id(item, "id", required: true)
        let width = try context.int(item, "width", count: true)
        let height = try context.int(item, "height", count: true)
        let image = try context.media(item, "image")
        let duration = try context.double(item, "duration", nonNegative: true)
        var userID: FeedID?
        var username: String?
        if let user = try context.object(item, "user") {
            userID = try context.id(user, "id")
            username = try context.string(user, "name")
        }
        var files: [File] = []
        let filesPath = item.path.child("video_files")
        for (index, node) in (try context.array(item, "video_files", required: true) ?? []).enumerated() {
            guard let file = try context.object(node, path: ItemPath(parent: filesPath, index: index)) else { continue }
            let quality = try context.string(file, "quality")
            if let link = try context.media(file, "link", required: true) { files.append(File(quality: quality, link: link)) }
        }
        guard let id else { return nil }
        let chosen = ["hd", "sd", "hls"].lazy.compactMap { quality in files.first { $0.quality == quality } }.first ?? files.first
        var video = Video(id: id, userID: userID, username: username ?? "", viewers: 0, likes: 0,
                          duration: duration, width: width, height: height)
        video.videoReference = chosen?.link
        video.thumbnailReference = image
        return video
    }
}
