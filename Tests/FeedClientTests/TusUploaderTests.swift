import FeedClient
import FeedTestSupport
import Foundation
import Testing

/// The uploader's protocol work against an in-memory tus server: chunks, resuming from HEAD after
/// a cut, a gone upload started over, the rate limit and its clock.
@Suite("TusUploader")
struct TusUploaderTests {
    let server = MemoryTusServer()
    var client: FeedClient { FeedClient(serverURL: URL(string: "http://feed.test")!, transport: server) }

    func file(_ count: Int) throws -> (String, [UInt8], ScratchFolder) {
        let folder = try ScratchFolder()
        // Bytes that differ from offset to offset (a chunk in the wrong place shows), made in
        // one pass over a buffer: cheap under the sanitizers too.
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            var state: UInt32 = 2_463_534_242
            for index in buffer.indices {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                buffer[index] = UInt8(truncatingIfNeeded: state)
            }
        }
        let path = folder.url("clip.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes, folder)
    }

    /// Every element of an upload's stream, or the error it ended with.
    func collect(_ stream: AsyncThrowingStream<UploadProgress, any Error>) async -> ([UploadProgress], FeedClientError?) {
        var seen: [UploadProgress] = []
        do {
            for try await progress in stream { seen.append(progress) }
            return (seen, nil)
        } catch {
            return (seen, error as? FeedClientError)
        }
    }

    @Test("a file goes up in chunks; the last element has the recording")
    func chunks() async throws {
        let (path, bytes, _folder) = try file(300_000)
        var uploader = TusUploader(client: client)
        uploader.chunkSize = 100_000
        let (seen, error) = await collect(uploader.upload(file: path, title: "Beach"))
        #expect(error == nil)
        let last = try #require(seen.last)
        #expect(last.recordingID == 7 && last.offset == 300_000 && last.sent == 300_000 && last.resumedFrom == 0)
        #expect(server.bytes(of: last.uploadID) == bytes)
        #expect(server.log.filter { $0.hasPrefix("PATCH") }.count == 3)
        // As tus writes it: not percent-encoded as the generated code encodes header values.
        #expect(server.metadata == "filename Y2xpcC5tcDQ=,title QmVhY2g=")
        #expect(seen.map(\.offset) == seen.map(\.offset).sorted(), "offsets only grow")
        _ = _folder
    }

    @Test("a complete upload the server is still adding is asked after again at doubling waits up to 2 s; past processingTimeout the stream throws")
    func waitsForProcessing() async throws {
        let (path, _, _folder) = try file(1_000)
        server.processingPolls = 7
        let waits = Waits()
        var uploader = TusUploader(client: client)
        uploader.sleep = { await waits.add($0) }
        let (seen, error) = await collect(uploader.upload(file: path))
        #expect(error == nil && seen.last?.recordingID == 7)
        #expect(await waits.all == [100, 200, 400, 800, 1_600, 2_000, 2_000].map { Duration.milliseconds($0) })

        server.processingPolls = .max
        let endless = Waits()
        uploader.sleep = { await endless.add($0) }
        uploader.processingTimeout = .seconds(10)
        let (_, failure) = await collect(uploader.upload(file: path))
        #expect(failure?.description.contains("still says processing after waiting 10 s") == true, "\(String(describing: failure))")
        let waited = await endless.all
        #expect(waited.reduce(.zero, +) == .seconds(10), "waited exactly the timeout: \(waited)")
        #expect(server.log.filter { $0.hasPrefix("GET") }.count == 8 + 10, "\(server.log)")
        _ = _folder
    }

    @Test("a cut connection is retried from the server's offset (HEAD), after the retry delay")
    func resumesAfterCut() async throws {
        let (path, bytes, _folder) = try file(250_000)
        server.cutAfter = 30_000
        let waits = Waits()
        var uploader = TusUploader(client: client)
        uploader.chunkSize = 100_000
        uploader.retryDelay = .milliseconds(250)
        uploader.sleep = { await waits.add($0) }
        let (seen, error) = await collect(uploader.upload(file: path))
        #expect(error == nil)
        let last = try #require(seen.last)
        #expect(server.bytes(of: last.uploadID) == bytes)
        // The cut chunk counts in full, as far as the transport took it: less than the file plus one chunk.
        #expect(last.sent > 250_000 && last.sent <= 250_000 + 100_000, "\(last.sent)")
        #expect(await waits.all == [.milliseconds(250)])
        let requests = server.log
        let cut = try #require(requests.firstIndex { $0.hasPrefix("PATCH") })
        #expect(requests[cut + 1].hasPrefix("HEAD"), "\(requests)")
        _ = _folder
    }

    @Test("a server down for good: retries with doubling waits, then throws transport, keeping the offset")
    func givesUp() async throws {
        let (path, _, _folder) = try file(200_000)
        let waits = Waits()
        var uploader = TusUploader(client: client)
        uploader.chunkSize = 50_000
        uploader.retries = 3
        uploader.retryDelay = .milliseconds(100)
        uploader.sleep = { await waits.add($0) }
        server.downAt = 100_000
        let (seen, failure) = await collect(uploader.upload(file: path))
        guard case .transport = try #require(failure) else { Issue.record("\(String(describing: failure))"); return }
        #expect(await waits.all == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(seen.last?.offset == 100_000)

        // Back up: a new uploader resumes the same upload from its id.
        server.down = false
        let id = try #require(seen.last?.uploadID)
        let (resumed, error) = await collect(uploader.upload(file: path, resuming: id))
        #expect(error == nil)
        #expect(resumed.first?.resumedFrom == 100_000 && resumed.last?.sent == 100_000 && resumed.last?.uploadID == id)
        _ = _folder
    }

    @Test("an upload the server no longer holds starts over as a new one")
    func goneStartsOver() async throws {
        let (path, bytes, _folder) = try file(10_000)
        let (first, _) = await collect(TusUploader(client: client).upload(file: path))
        let old = try #require(first.last?.uploadID)
        server.forget(old)
        let (again, error) = await collect(TusUploader(client: client).upload(file: path, resuming: old))
        #expect(error == nil)
        let last = try #require(again.last)
        #expect(last.uploadID != old && last.resumedFrom == 0 && server.bytes(of: last.uploadID) == bytes)
        _ = _folder
    }

    @Test("the rate limit waits on the uploader's clock: 1 MB at 256 KiB/s asks for about 4 s of waits")
    func rateLimit() async throws {
        let (path, _, _folder) = try file(1 << 20)
        let waits = Waits()
        var uploader = TusUploader(client: client)
        uploader.bytesPerSecond = 256 << 10
        uploader.sleep = { await waits.add($0) }
        let (_, error) = await collect(uploader.upload(file: path))
        #expect(error == nil)
        // The waits do not pass real time here, so each is what is due minus the (tiny) time spent.
        let total = await waits.all.reduce(Duration.zero, +)
        #expect(total > .seconds(3.5) && total <= .seconds(4), "\(total)")
        _ = _folder
    }

    @Test("a server whose PATCH answers an Upload-Offset outside the file (negative, past it, Int64's ends) is an error naming it, not a crash",
          arguments: ["-1", "-9223372036854775808", "9223372036854775807", "300001"])
    func offsetOutsideTheFile(said: String) async throws {
        let (path, _, _folder) = try file(300_000)
        server.patchOffset = said
        var uploader = TusUploader(client: client)
        uploader.chunkSize = 100_000
        let (_, error) = await collect(uploader.upload(file: path, title: nil))
        #expect("\(String(describing: error))".contains("Upload-Offset \(said) is outside 0…300000"), "\(String(describing: error))")
        _ = _folder
    }

    @Test("a missing file is a file error naming it, before any request")
    func missingFile() async throws {
        let (_, error) = await collect(TusUploader(client: client).upload(file: "/nonexistent/clip.mp4"))
        #expect(error?.description == "/nonexistent/clip.mp4: no such file")
        #expect(server.log.isEmpty)
    }
}

/// The waits an uploader asked for.
actor Waits {
    private(set) var all: [Duration] = []
    func add(_ duration: Duration) { all.append(duration) }
}
