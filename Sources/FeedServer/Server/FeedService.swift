import FeedCore
import FeedRecs
import FeedSocial
import Foundation

/// What every route reads: the feed being served, the roll, and the settings.
public final class FeedService: Sendable {
    /// The feed `GET /videos` serves (loaded once, at start).
    public let feed: Feed
    /// The roll: recordings, likes and bookmarks (the same database as the CLI's).
    public let roll: Roll
    /// The settings.
    public let configuration: ServerConfiguration
    /// The social catalog (posts, people, follows, comments, reports): the roll's catalog, which
    /// both catalogs implement.
    public let social: any SocialStore
    /// For You: events, pages and the model in hand; nil for a catalog that keeps no events
    /// (a test's stand-in), whose For You routes answer 503.
    public let recs: Recs?
    /// Resumable uploads into the roll (`/uploads`).
    public let uploads: UploadStore
    /// What players get for recordings and local feed clips: fast start (`moov` first), copies
    /// made on first request in `recordings/.faststart/`, and each file's `preload_bytes`.
    public let fastStart: FastStartCopies
    /// The feed's videos by id (the feed does not change while served).
    let videoIndex: VideoIndex
    /// The feed's videos most liked first (then most viewed), as Pexels' `/v1/videos/popular`
    /// lists them: sorted once, not per request.
    let popular: [Video]
    /// Pexels' search over the feed, each video's words made once.
    let search: PexelsSearch
    /// Feed responses already rendered, by base URL and query (the feed does not change).
    let rendered = RenderedCache()
    /// The server's folders, kept out of answers (worked out once: it resolves symbolic links).
    let paths: ServerPaths

    /// `host:port` as bound (the port is known once the server listens).
    private let bound: Locked<String>

    /// A service over `feed` and `roll`.
    public init(feed: Feed, roll: Roll, configuration: ServerConfiguration) {
        self.feed = feed
        self.roll = roll
        self.configuration = configuration
        // Both catalogs (SQLiteCatalog, PostgresCatalog) are social stores; a catalog that is not
        // (a test's stand-in) answers every social route with 503.
        social = roll.catalog as? any SocialStore ?? UnavailableSocialStore()
        recs = (roll.catalog as? any RecsStore).map { Recs(store: $0, explorationShare: configuration.recsExploration) }
        videoIndex = VideoIndex(feed.videos)
        popular = feed.videos.sorted { ($0.likes, $0.viewers) > ($1.likes, $1.viewers) }
        search = PexelsSearch(feed.videos)
        fastStart = FastStartCopies(store: roll.media)
        uploads = UploadStore(roll: roll, maxSize: configuration.uploadMaxSize, expiry: configuration.uploadExpiry)
        bound = Locked("\(configuration.host):\(configuration.port)")
        paths = ServerPaths(folders: [roll.paths.home.path, feed.folder, FileManager.default.currentDirectoryPath])
    }

    /// The feed's video `id` (``Feed/video(id:)``, without walking the feed).
    func video(id: String) -> Video? {
        videoIndex.video(id: id)
    }

    /// The local files of the feed's clips, as `/media/videos/{id}` finds them.
    var localClips: [String] {
        feed.videos.compactMap { video in
            guard let reference = video.videoReference, case .file(let path) = feed.location(of: reference) else { return nil }
            return path
        }
    }

    /// `host:port` the server listens on, for links when a request has no usable `Host`.
    var boundHost: String { bound.withLock { $0 } }

    /// This server's base URL as the other servers sharing its catalog reach it: `--advertise-url`,
    /// else `http://HOST:PORT` as bound. Where they send the players of streams published here.
    var origin: String { configuration.advertiseURL ?? "http://\(boundHost)" }

    /// Records the port actually bound (for `--port 0`).
    func listening(port: Int) {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        bound.withLock { $0 = "\(host):\(port)" }
    }
}
