import FeedClient
import FeedRemote
import FeedTestSupport
import Foundation
import Testing

/// FeedClient, the client generated from openapi.yaml, against a real `feed serve`.
@Suite("FeedClient against feed serve")
struct FeedClientServeTests {
    @Test("list, roll, a like, a comment, uploads and a stack job to done, through the generated client")
    func contract() async throws {
        let serve = try await ServeProcess(["--quiet", "--jobs", "1"])
        let remote = try RemoteServer(url: serve.base, token: nil)
        do {
            let api = remote.client.api
            // The feed: the same videos as `feed list --json` of the same (demo) feed.
            let videos = try await api.listVideos().ok.body.json.videos
            let local = try await FeedProcess.run(["list", "--json"])
            let ids = try #require(try JSONSerialization.jsonObject(with: Data(local.stdout.utf8)) as? [[String: Any]]).compactMap { $0["id"] as? Int }
            #expect(!videos.isEmpty && videos.map(\.id) == ids)

            // A like, read back by the client and by the CLI on the same home.
            let first = try #require(videos.first).id
            let marked = try await api.likeVideo(path: .init(id: "\(first)")).ok.body.json
            #expect(marked.liked)
            #expect(try await api.listLikes().ok.body.json.videos.map(\.id) == [first])

            // A comment: the answer is the stored row, and the first page has it on top.
            let posted = try await api.postComment(body: .json(.init(username: "ada", comment: "from the client"))).created.body.json
            let page = try await api.listComments(query: .init(limit: 5)).ok.body.json
            #expect(page.comments.first?.comment == "from the client" && posted.comment == "from the client")

            // Two uploads with the tus uploader, then a stack of them, followed to done.
            let clips = try ScratchFolder()
            var recordings: [Int] = []
            for (name, pattern, tone) in [("front.mp4", "testsrc", 440), ("back.mp4", "testsrc2", 660)] {
                let path = try await RemoteMedia.clip(clips.url(name).path, pattern: pattern, tone: tone)
                var last: UploadProgress?
                for try await progress in TusUploader(client: remote.client).upload(file: path, title: name) { last = progress }
                recordings.append(try #require(last?.recordingID))
            }
            let roll = try await api.listRecordings().ok.body.json
            #expect(Set(roll.recordings.map(\.id)) == Set(recordings) && roll.nextCursor == nil)

            let job = try await api.queueStack(body: .json(.init(front: .RecordingSource(.init(recording: Int64(recordings[0]))),
                                                                   back: .RecordingSource(.init(recording: Int64(recordings[1]))),
                                                                   title: "stacked", options: .init(layout: .hstack)))).accepted.body.json
            var states: [Components.Schemas.Job.StatePayload] = []
            var done: Components.Schemas.Job?
            for try await update in remote.client.jobUpdates(id: job.id) { states.append(update.state); done = update }
            #expect(states.last == .done, "\(states)")
            let made = try #require(done?.recordingId)
            let recording = try await api.getRecording(path: .init(id: "\(made)")).ok.body.json
            #expect(recording.width == 320 && recording.height == 120 && recording.title == "stacked")
            var bytes = 0
            for try await chunk in try await remote.client.recordingClip(id: made) { bytes += chunk.count }
            #expect(bytes == recording.bytes)
            #expect(try await api.listJobs(query: .init(state: .done)).ok.body.json.jobs.map(\.id) == [job.id])

            // A refusal is the server's problem details, typed.
            do {
                _ = try await remote.client.perform { try await api.getRecording(path: .init(id: "999")).ok }
                Issue.record("recording 999 exists")
            } catch {
                guard case let .server(status, problem) = error else { Issue.record("\(error)"); throw error }
                #expect(status == 404 && problem.kind == "notFound" && problem.detail.contains("999"))
            }
        } catch {
            await remote.shutdown()
            throw error
        }
        await remote.shutdown()
        await serve.stop()
    }

    @Test("an upload cut by a SIGKILL of the server resumes from its offset on the restarted server, not from zero")
    func resumesAfterKill() async throws {
        let serve = try await ServeProcess(["--quiet"])
        let port = try #require(serve.base.split(separator: ":").last.map(String.init))
        let folder = try ScratchFolder()
        let path = try await RemoteMedia.noise(folder.url("noise.mp4").path)
        let size = try RemoteMedia.size(path)
        let remote = try RemoteServer(url: serve.base, token: nil)
        var uploader = TusUploader(client: remote.client)
        uploader.chunkSize = 256 << 10
        uploader.retries = 0
        // Kill the server once it holds a third of the file, while the next chunk is on its way.
        var killedAt: UploadProgress?, sentBefore: Int64 = 0
        do {
            for try await progress in uploader.upload(file: path) {
                sentBefore = progress.sent
                if killedAt == nil, progress.offset >= size / 3 {
                    killedAt = progress
                    await serve.crash()
                }
            }
            Issue.record("the upload finished although its server was killed")
        } catch {
            guard case .transport = error as? FeedClientError else { Issue.record("\(error)"); throw error }
        }
        await remote.shutdown()
        let cut = try #require(killedAt)

        let again = try await ServeProcess(["--quiet", "--port", port], home: serve.home)
        let second = try RemoteServer(url: again.base, token: nil)
        var last: UploadProgress?, firstSeen: UploadProgress?
        do {
            for try await progress in TusUploader(client: second.client).upload(file: path, resuming: cut.uploadID) {
                if firstSeen == nil { firstSeen = progress }
                last = progress
            }
        } catch {
            await second.shutdown()
            throw error
        }
        await second.shutdown()
        let done = try #require(last)
        #expect(firstSeen?.resumedFrom ?? 0 >= cut.offset, "resumed from \(firstSeen?.resumedFrom ?? 0), the server had \(cut.offset)")
        #expect(done.uploadID == cut.uploadID && done.recordingID != nil)
        #expect(Double(sentBefore + done.sent) < 1.1 * Double(size), "sent \(sentBefore) + \(done.sent) of \(size)")
        let rows = try await serve.home.rows()
        #expect(rows.first?["sha256"] as? String == (try RemoteMedia.sha256(path)))
        await again.stop()
    }
}
