import Foundation

extension Roll {
    /// The roll, newest first, as a LIVEr `{"videos":[…]}` feed (UTF-8 JSON, one video a line).
    ///
    /// Each video has, in this order: `id` (the recording id), `username` and `topic`
    /// ("roll"), `description` (the title, else the file name), `viewers` and `likes` (0),
    /// `video` (the stored file as an absolute `file://` URL), `duration`, `width`, `height`.
    public func exportFeed() throws(RollError) -> [UInt8] {
        let all = try recordings(limit: nil)
        var out = Array("{\"videos\": [\n".utf8)
        out.reserveCapacity(all.count * 300 + 20)
        for (index, r) in all.enumerated() {
            out.append(contentsOf: #"  {"id":"#.utf8)
            JSONOutput.write(r.id, into: &out)
            out.append(contentsOf: #","username":"roll","topic":"roll","description":"#.utf8)
            JSONOutput.write(r.title ?? r.fileName, into: &out)
            out.append(contentsOf: #","viewers":0,"likes":0,"video":"#.utf8)
            JSONOutput.write(URL(fileURLWithPath: path(of: r), isDirectory: false).absoluteString, into: &out)
            out.append(contentsOf: #","duration":"#.utf8)
            out.append(contentsOf: (r.media.duration.isFinite ? r.media.duration : 0).description.utf8)
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
