import Foundation
import FeedCore
import FeedSQLite
import FeedTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import FeedServer

/// A server over the demo feed and an empty roll in a scratch folder, tested in process
/// (HummingbirdTesting's router client: no socket, no process). The real-socket tests with curl,
/// ffmpeg and the tus client live in FeedCLITests.
struct ServerFixture {
    let folder: ScratchFolder
    let roll: Roll
    let server: FeedServer

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        let folder = try ScratchFolder()
        try self.init(folder: folder, roll: try Roll(paths: RollPaths(home: folder.url("home")), prober: MediaRecordingProber()), configure: configure)
    }

    /// A server over `roll` (a PostgreSQL catalog's, say) and `feed` (the demo feed by default).
    init(folder: ScratchFolder, roll: Roll, feed: Feed = FeedLoader.demo(), configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        self.folder = folder
        self.roll = roll
        var configuration = ServerConfiguration()
        configuration.quiet = true
        // Hundreds of tests share two cores: a catalog may take seconds to answer a scrape.
        configuration.catalogTimeout = 120
        configure(&configuration)
        server = FeedServer(service: FeedService(feed: feed, roll: roll, configuration: configuration))
    }

    /// Adds catalog rows for recordings 1…`count` (no files: enough for what checks ids), owned
    /// by `owners[n - 1]` where given.
    func addRecordings(_ count: Int, owners: [String?] = []) async throws {
        for n in 1...count {
            _ = try await roll.catalog.insert(Recording(fileName: "clip-\(n).mp4", originalPath: "/in/clip-\(n).mp4", createdAt: Date(),
                                                        media: RecordingMedia(duration: 4, width: 540, height: 960, fps: 30, videoCodec: "h264", hasAudio: true),
                                                        bytes: 1000, sha256: String(format: "%064x", n), owner: n <= owners.count ? owners[n - 1] : nil),
                                              refusingDuplicates: true)
        }
    }

    /// Runs `body` with a client of the server's router.
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: server.router()).test(.router, body)
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The problem details' `kind` and `detail`, nil unless the body is RFC 9457 problem details
    /// (`application/problem+json`) whose `type`, `title` and `status` agree with the response.
    var error: (kind: String, message: String)? {
        guard headers[.contentType] == "application/problem+json",
              let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
              object["type"] as? String == "about:blank", object["title"] as? String == status.reasonPhrase,
              object["status"] as? Int == status.code,
              let kind = object["kind"] as? String, let detail = object["detail"] as? String else { return nil }
        return (kind, detail)
    }
}

extension ByteBuffer {
    /// A body from text.
    init(text: String) { self.init(string: text) }
}
