import Foundation
import GRDB

extension Roll {
    /// Puts `mark` on (or, with `on` false, takes it off) the feed video `videoID`.
    /// Returns whether anything changed (liking a liked video changes nothing).
    @discardableResult
    public func setMark(_ mark: VideoMark, _ on: Bool = true, videoID: String) throws(RollError) -> Bool {
        guard !videoID.isEmpty else { throw RollError.invalidArgument("a video id cannot be empty") }
        let column = mark.column
        let now = Date().timeIntervalSince1970
        return try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO video_mark(video_id) VALUES (?)", arguments: [videoID])
            if on {
                try db.execute(sql: "UPDATE video_mark SET \(column) = ? WHERE video_id = ? AND \(column) IS NULL",
                               arguments: [now, videoID])
            } else {
                try db.execute(sql: "UPDATE video_mark SET \(column) = NULL WHERE video_id = ? AND \(column) IS NOT NULL",
                               arguments: [videoID])
            }
            let changed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM video_mark WHERE liked_at IS NULL AND bookmarked_at IS NULL")
            return changed
        }
    }

    /// The marks on feed video `videoID`.
    public func marks(videoID: String) throws(RollError) -> Set<VideoMark> {
        try marks()[videoID] ?? []
    }

    /// Every marked video's marks, by feed video id (for a ♥ column in a table).
    public func marks() throws(RollError) -> [String: Set<VideoMark>] {
        try read { db in
            var result: [String: Set<VideoMark>] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT video_id, liked_at, bookmarked_at FROM video_mark")
            while let row = try rows.next() {
                var set: Set<VideoMark> = []
                if row[1] as Double? != nil { set.insert(.like) }
                if row[2] as Double? != nil { set.insert(.bookmark) }
                result[row[0]] = set
            }
            return result
        }
    }

    /// Ids of the feed videos carrying `mark`, most recently marked first
    /// (`feed list --liked` / `--bookmarked` filter a feed by these).
    public func videoIDs(marked mark: VideoMark) throws(RollError) -> [String] {
        let column = mark.column
        return try read { db in
            try String.fetchAll(db, sql: "SELECT video_id FROM video_mark WHERE \(column) IS NOT NULL ORDER BY \(column) DESC, video_id")
        }
    }
}

extension Roll {
    /// The marks of the roll at `paths` without creating anything: empty when there is no
    /// roll yet (for a ♥ column in `feed list`, which must not create a roll as a side effect).
    public static func existingMarks(paths: RollPaths = .fromEnvironment()) throws(RollError) -> [String: Set<VideoMark>] {
        guard FileManager.default.fileExists(atPath: paths.database.path) else { return [:] }
        return try Roll(paths: paths, prober: MediaRecordingProber(), access: .readOnly).marks()
    }
}
