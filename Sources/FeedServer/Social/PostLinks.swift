import FeedCore
import FeedSocial
import Foundation

/// Where a post's media are, for one request: its clip, poster and (once packaged) HLS ladder as
/// this server's links (signed when the server has a key), and the clip's first-picture prefix.
struct PostLinks {
    let links: MediaLinks
    let roll: Roll
    let fastStart: FastStartCopies

    init(request links: MediaLinks, service: FeedService) {
        self.links = links
        roll = service.roll
        fastStart = service.fastStart
    }

    /// The recording of `post` as the roll's lookups take it (by id, file name and content).
    static func recording(of post: SocialPost) -> Recording {
        Recording(id: post.recordingID, fileName: post.media.fileName, originalPath: "", createdAt: post.createdAt,
                  media: RecordingMedia(duration: post.media.duration, width: post.media.width, height: post.media.height, fps: 0,
                                        videoCodec: "", hasAudio: false),
                  bytes: 0, sha256: post.media.sha256)
    }

    func video(_ post: SocialPost) -> String { links.roll(post.recordingID) }

    func poster(_ post: SocialPost) -> String { links.local("/media/roll/\(post.recordingID)/thumb.jpg") }

    /// The ladder's master playlist once an `hls` job (or a first request) packaged it; nil
    /// before (and for media in a bucket, where telling would take a request).
    func hls(_ post: SocialPost) -> String? {
        guard roll.media is FolderMediaStore, roll.cachedHLS(of: Self.recording(of: post)) != nil else { return nil }
        return links.local("/roll/\(post.recordingID)/hls/master.m3u8")
    }

    /// The prefix that holds the clip's first picture, known of local files.
    func preloadBytes(_ post: SocialPost) -> Int64? {
        guard roll.media is FolderMediaStore else { return nil }
        return fastStart.preloadBytes(for: roll.path(of: Self.recording(of: post)))
    }
}
