@testable import FeedServer
import Testing

/// What a client is told of a file on the server: its name, never its folders.
@Suite("ServerPaths")
struct ServerPathsTests {
    let paths = ServerPaths(folders: ["/srv/feed/home/", "/srv/feed", "/srv/feed/home"])

    @Test("a path under a folder keeps its last component; the longest folder wins; the folder alone is '.'", arguments: [
        ("/srv/feed/videos.json: no video or post has id 999", "videos.json: no video or post has id 999"),
        ("/srv/feed/home/recordings/.uploads/ab12.part: not a media file", "ab12.part: not a media file"),
        ("cannot open '/srv/feed/home/roll.sqlite' (disk full)", "cannot open 'roll.sqlite' (disk full)"),
        ("front /srv/feed/a.mp4, back /srv/feed/b.mp4: no clear match", "front a.mp4, back b.mp4: no clear match"),
        ("/srv/feed: is a folder", ".: is a folder"),
        ("GET /videos/999: no such video", "GET /videos/999: no such video"),
        ("/srv/feedback/x.json: elsewhere", "/srv/feedback/x.json: elsewhere"),
    ])
    func redacts(message: String, expected: String) {
        #expect(paths.redact(message) == expected)
    }

    @Test("folders are kept once, longest first, without a trailing slash")
    func folders() {
        #expect(paths.folders.first == "/srv/feed/home" && paths.folders.filter { $0 == "/srv/feed/home" }.count == 1)
    }
}
