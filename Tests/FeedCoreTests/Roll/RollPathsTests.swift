import Foundation
import Testing
@testable import FeedCore

@Suite("RollPaths")
struct RollPathsTests {
    @Test("FEED_HOME wins, then XDG_DATA_HOME/feed, then ~/.local/share/feed; empty counts as unset")
    func environment() {
        #expect(RollPaths.fromEnvironment(["FEED_HOME": "/a/b", "XDG_DATA_HOME": "/x", "HOME": "/h"]).home.path == "/a/b")
        #expect(RollPaths.fromEnvironment(["FEED_HOME": "", "XDG_DATA_HOME": "/x", "HOME": "/h"]).home.path == "/x/feed")
        #expect(RollPaths.fromEnvironment(["XDG_DATA_HOME": "", "HOME": "/h"]).home.path == "/h/.local/share/feed")
    }

    @Test("the database and recordings live under the home")
    func layout() {
        let paths = RollPaths(home: URL(fileURLWithPath: "/r"))
        #expect(paths.database.path == "/r/roll.sqlite")
        #expect(paths.recordings.path == "/r/recordings")
        #expect(paths.incoming.path == "/r/recordings/.incoming")
        #expect(paths.trash.path == "/r/recordings/.trash")
        #expect(paths.thumbs.path == "/r/recordings/.thumbs")
    }
}
