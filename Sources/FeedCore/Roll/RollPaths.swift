import Foundation

/// Where a roll keeps its files: `roll.sqlite` and `recordings/` under one home folder.
///
/// `recordings/` holds one file per recording plus hidden folders: `.incoming/` (copies in
/// progress), `.trash/` (removals in progress), `.thumbs/` (cached posters), `.hls/` (cached HLS ladders) and `.uploads/`
/// (resumable uploads of `feed serve`, which `verify` leaves alone: see ``UploadStore``).
public struct RollPaths: Sendable, Equatable {
    /// The home folder.
    public let home: URL

    /// A roll rooted at `home`.
    public init(home: URL) { self.home = home.standardizedFileURL }

    /// The home folder from the environment: `$FEED_HOME`, else `$XDG_DATA_HOME/feed`,
    /// else `~/.local/share/feed`. Empty variables count as unset.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> RollPaths {
        if let home = environment["FEED_HOME"], !home.isEmpty {
            return RollPaths(home: URL(fileURLWithPath: home, isDirectory: true))
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return RollPaths(home: URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("feed", isDirectory: true))
        }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return RollPaths(home: URL(fileURLWithPath: user, isDirectory: true)
            .appendingPathComponent(".local/share/feed", isDirectory: true))
    }

    /// `roll.sqlite`.
    public var database: URL { home.appendingPathComponent("roll.sqlite") }
    /// `recordings/`: one file per recording.
    public var recordings: URL { home.appendingPathComponent("recordings", isDirectory: true) }
    /// `recordings/.incoming/`: partial copies; anything left here after a crash is garbage.
    public var incoming: URL { recordings.appendingPathComponent(".incoming", isDirectory: true) }
    /// `recordings/.trash/`: files whose removal was under way.
    public var trash: URL { recordings.appendingPathComponent(".trash", isDirectory: true) }
    /// `recordings/.jobs/`: outputs of background jobs while they are written (moved into the roll when done).
    public var jobs: URL { recordings.appendingPathComponent(".jobs", isDirectory: true) }
    /// `recordings/.thumbs/`: cached poster frames, `<id>-<milliseconds>.jpg`.
    public var thumbs: URL { recordings.appendingPathComponent(".thumbs", isDirectory: true) }
    /// `recordings/.hls/`: cached HLS ladders, `<id>-<sha256 prefix>/` (see ``Roll/hls(of:options:isCancelled:)``).
    public var hls: URL { recordings.appendingPathComponent(".hls", isDirectory: true) }
    /// `recordings/.faststart/`: copies of recordings and feed clips with `moov` moved first, as
    /// the server gives them (see ``FastStartCopies``); safe to delete.
    public var faststart: URL { recordings.appendingPathComponent(".faststart", isDirectory: true) }
    /// `recordings/.live/`: live streams being recorded, `<id>.fmp4` (see ``LiveRecordingFile``),
    /// until each becomes a recording.
    public var live: URL { recordings.appendingPathComponent(".live", isDirectory: true) }
    /// `recordings/.uploads/`: resumable uploads, `<id>.json` and `<id>.part` (see ``UploadStore``).
    public var uploads: URL { recordings.appendingPathComponent(".uploads", isDirectory: true) }
    /// `recordings/.lock`: shared while files move, exclusive while `verify` looks.
    var lock: URL { recordings.appendingPathComponent(".lock") }
    /// `roll.setup.lock`: held while the schema is created or migrated.
    package var setupLock: URL { home.appendingPathComponent("roll.setup.lock") }

    /// The stored file of a recording named `fileName`, always directly inside `recordings/`.
    public func file(named fileName: String) -> URL {
        recordings.appendingPathComponent(Self.storedName(fileName), isDirectory: false)
    }

    /// `fileName` if it is a plain file name. Only a damaged or hand-edited database holds
    /// another ("../../etc/passwd", "a/b", "", ".", ".."): it becomes a name inside
    /// `recordings/` that `add` never makes, so its row reads as a missing file and no roll
    /// command reaches a file outside the roll.
    package static func storedName(_ fileName: String) -> String {
        if !fileName.contains("/") && fileName != "." && fileName != ".." && !fileName.isEmpty { return fileName }
        return "not-a-file-name-" + fileName.replacingOccurrences(of: "/", with: "%2F")
    }
}
