import FeedCore
import Foundation

/// Pairs of recordings from `bench/sync-corpus.py` (espeak-ng speech, tones, a metronome, each
/// side through its own microphone, room and noise), made once and kept in a folder under the
/// temporary directory named after the script's contents and the arguments, so a test run
/// makes them at most once and a changed script makes them again.
public enum SyncCorpus {
    /// One pair, as `pairs.tsv` lists it.
    public struct Pair: Sendable, CustomStringConvertible {
        public var name: String
        /// "shared-speech", "shared-tones", "noshared-…", "periodic-periodic".
        public var kind: String
        /// Seconds the front starts after the back; nil when the sides share no sound.
        public var offset: Double?
        /// Signal-to-noise ratio of both sides in dB; nil for no-shared pairs.
        public var snr: Int?
        public var front: String
        public var back: String

        public var description: String { "\(name) \(kind) offset \(offset.map { "\($0)" } ?? "-") snr \(snr.map { "\($0)" } ?? "-")" }
    }

    /// Each corpus folder's making, started by the first test that asks for it and awaited by
    /// all (a wait that holds no thread while python, espeak-ng, sox and ffmpeg work).
    private static let making = Locked<[String: Task<Void, any Error>]>([:])

    /// The first `count` pairs of `seconds` s each (only those of `kinds`; the back's clock
    /// `drift` ppm slow), made if needed.
    public static func pairs(count: Int, seconds: Int, kinds: String = "shared,noshared,periodic", drift: Int = 0) async throws -> [Pair] {
        let script = RepositoryFiles.root.appendingPathComponent("bench/sync-corpus.py")
        var hash: UInt64 = 0xcbf29ce484222325                // FNV-1a of the script and the arguments
        for byte in try Data(contentsOf: script) + Data("\(count) \(seconds) \(kinds) \(drift)".utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100000001b3
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-sync-corpus-\(String(hash, radix: 16))")
        let list = folder.appendingPathComponent("pairs.tsv")
        let arguments = ["--count", "\(count)", "--seconds", "\(seconds)", "--kinds", kinds, "--drift", "\(drift)"]
        let made = making.withLock { tasks in
            if let task = tasks[folder.path] { return task }
            let task = Task { try await make(folder, list: list, script: script, arguments: arguments) }
            tasks[folder.path] = task
            return task
        }
        try await made.value
        return try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Pair(name: f[0], kind: f[1], offset: Double(f[2]), snr: Int(f[3]),
                        front: folder.appendingPathComponent(f[4]).path, back: folder.appendingPathComponent(f[5]).path)
        }
    }

    /// Runs the script into a temporary folder renamed to `folder`, unless `list` exists already.
    private static func make(_ folder: URL, list: URL, script: URL, arguments: [String]) async throws {
        if FileManager.default.fileExists(atPath: list.path) { return }
        let part = folder.path + ".part-\(UUID().uuidString)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments + [part]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status = try await ChildProcess.run(process).process.terminationStatus
        guard status == 0 else {
            try? FileManager.default.removeItem(atPath: part)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "bench/sync-corpus.py failed (\(status)); are espeak-ng, sox and ffmpeg installed?"])
        }
        // Another process may have made it meanwhile: then keep theirs.
        if rename(part, folder.path) != 0 { try? FileManager.default.removeItem(atPath: part) }
    }
}
