import Foundation

extension Roll {
    /// One video of an exported roll, in the LIVEr schema that `feed list --feed` reads.
    struct ExportedVideo: Encodable {
        var id: Int64
        var username: String
        var description: String
        var topic: String
        var viewers: Int
        var likes: Int
        var video: String
        var duration: Double
        var width: Int
        var height: Int
    }

    /// The roll, newest first, as a LIVEr `{"videos":[…]}` feed (pretty-printed UTF-8 JSON).
    ///
    /// Each video's `id` is the recording id, `video` the stored file as an absolute
    /// `file://` URL, `description` the title or else the file name, `username` "roll",
    /// `topic` "roll"; `duration`, `width` and `height` come from the probe.
    public func exportFeed() throws(RollError) -> [UInt8] {
        let all = try recordings(limit: nil)
        let videos = all.map { r in
            ExportedVideo(id: r.id, username: "roll", description: r.title ?? r.fileName, topic: "roll", viewers: 0,
                          likes: 0, video: url(of: r).absoluteString, duration: r.duration, width: r.width, height: r.height)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        do { return Array(try encoder.encode(["videos": videos])) + [0x0A] } catch {
            throw RollError.io(path: "export", reason: "\(error)")
        }
    }

    /// Inserts `count` synthetic rows in one transaction (for benchmarks: their files do
    /// not exist, so `verify` would report them all missing). Returns the new row count.
    @discardableResult
    public func seed(count: Int) throws(RollError) -> Int {
        let start = Date().timeIntervalSince1970 - Double(count)
        return try write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO recording(file_name, original_path, created_at, duration, width, height, fps, video_codec,
                                      has_audio, bytes, sha256) VALUES (?, ?, ?, ?, 1080, 1920, 30, 'h264', 1, ?, ?)
                """)
            for i in 0..<count {
                let name = "seed-\(UUID().uuidString.lowercased()).mp4"
                try statement.execute(arguments: [name, "/seed/\(name)", start + Double(i), 5 + Double(i % 55),
                                                  1_000_000 + i, String(repeating: "0", count: 48) + String(format: "%016x", i)])
            }
            return try Recording.fetchCount(db)
        }
    }
}
