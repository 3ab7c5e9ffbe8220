import Foundation

extension Roll {
    /// A recording as a feed video: the one mapping `play --roll`, `roll export` and the
    /// server use. `id` is the recording id, `username` and `topic` "roll", `description` the
    /// title (else the stored file name), `video` the stored file as a `file://` URL.
    public func video(of recording: Recording) -> Video {
        Video(id: .int(recording.id), username: "roll", description: recording.title ?? recording.fileName, topic: "roll",
              video: URL(fileURLWithPath: path(of: recording), isDirectory: false),
              hashtags: [], duration: recording.media.duration.isFinite ? recording.media.duration : 0,
              width: recording.media.width, height: recording.media.height)
    }

    /// The roll, newest first, as a LIVEr `{"videos":[…]}` feed (UTF-8 JSON, one video a line).
    ///
    /// Each video has, in this order: `id` (the recording id), `username` and `topic`
    /// ("roll"), `description` (the title, else the file name), `viewers` and `likes` (0),
    /// `video` (the stored file as an absolute `file://` URL), `duration`, `width`, `height`.
    public func exportFeed() async throws(RollError) -> [UInt8] {
        let all = try await recordings(limit: nil)
        var out = Array("{\"videos\": [\n".utf8)
        out.reserveCapacity(all.count * 300 + 20)
        for (index, r) in all.enumerated() {
            let video = video(of: r)
            out.append(contentsOf: #"  {"id":"#.utf8)
            JSONOutput.write(r.id, into: &out)
            out.append(contentsOf: #","username":"roll","topic":"roll","description":"#.utf8)
            JSONOutput.write(video.description, into: &out)
            out.append(contentsOf: #","viewers":0,"likes":0,"video":"#.utf8)
            JSONOutput.write(video.videoText ?? "", into: &out)
            out.append(contentsOf: #","duration":"#.utf8)
            out.append(contentsOf: (video.duration ?? 0).description.utf8)
            out.append(contentsOf: #","width":"#.utf8)
            JSONOutput.write(Int64(r.media.width), into: &out)
            out.append(contentsOf: #","height":"#.utf8)
            JSONOutput.write(Int64(r.media.height), into: &out)
            out.append(contentsOf: (index + 1 < all.count ? "},\n" : "}\n").utf8)
        }
        out.append(contentsOf: "]}\n".utf8)
        return out
    }

    /// Inserts `count` synthetic rows in one transaction (for benchmarks: their files do
    /// not exist, so `verify` would report them all missing). Returns the new row count.
    @discardableResult
    public func seed(count: Int) async throws(RollError) -> Int {
        let start = Date().timeIntervalSince1970 - Double(count)
        let rows = (0..<count).map { i in
            let name = "seed-\(UUID().uuidString.lowercased()).mp4"
            return Recording(fileName: name, originalPath: "/seed/\(name)", createdAt: Date(timeIntervalSince1970: start + Double(i)),
                             media: RecordingMedia(duration: 5 + Double(i % 55), width: 1080, height: 1920, fps: 30, videoCodec: "h264", hasAudio: true),
                             bytes: Int64(1_000_000 + i), sha256: String(repeating: "0", count: 48) + String(format: "%016x", i))
        }
        return try await catalog.insertAll(rows)
    }
}
