import Foundation

/// How a live stream ends and becomes a recording, written once for the server that ingested it
/// and for the one that finds it abandoned after a crash:
/// 1. the row goes `ended` (compare-and-set; `live.ended` is emitted by whoever made that change);
/// 2. the recording file (``LiveRecordingFile``) is flattened without re-encoding
///    (``FragmentedMP4Flattener``: `moov` first) into `recordings/.live/<id>.mp4` and moved
///    into the roll like `feed roll add --move`, titled and owned as the stream;
/// 3. the row gets the recording's id, then the file goes and `live.recording.ready` is emitted.
/// A crash anywhere leaves the file: the next ``recover()`` does it again, and an add that finds
/// the same bytes in the roll (step 2 done, step 3 not) takes that recording.
public struct LiveRecordings: Sendable {
    /// The roll recordings join, whose catalog has the streams.
    public let roll: Roll
    /// Where the blocking work (flattening, hashing) runs.
    let pool: BlockingPool
    /// The time streams end at.
    let clock: @Sendable () -> Date
    /// One line per step that a person running the server wants to see.
    let log: (@Sendable (String) -> Void)?
    /// What runs once a stream's recording is in the roll (`live.recording.ready` queued): the
    /// server publishes the streams created with `publish`.
    let ready: (@Sendable (LiveStream, Int64) async -> Void)?

    /// The recordings of `roll`'s live streams; blocking work on `pool`.
    public init(roll: Roll, pool: BlockingPool, clock: @escaping @Sendable () -> Date = { Date() },
                log: (@Sendable (String) -> Void)? = nil, ready: (@Sendable (LiveStream, Int64) async -> Void)? = nil) {
        self.roll = roll
        self.pool = pool
        self.clock = clock
        self.log = log
        self.ready = ready
    }

    var store: any LiveStreamStore { roll.catalog }

    /// Ends stream `id` for good (if it is not already) and makes its recording from what was
    /// recorded (nothing when no part was). The caller closed its ``LiveRecordingFile`` first;
    /// this takes the file's lock again while it works, so of two servers finding it one does.
    /// `cutShort` is why the recording stopped before the stream did (a write failed: a full
    /// disk), kept in the row's `error`: the recording holds what was written until then.
    /// - Returns: the stream as it is now, nil when there is no such stream (its file goes).
    @discardableResult
    public func finish(_ id: Int64, cutShort: String? = nil) async -> LiveStream? {
        guard var stream = await end(id) else {
            try? DurableFile.remove(LiveRecordingFile.url(of: id, in: roll.paths))
            return nil
        }
        if let cutShort {
            stream.error = "the recording stopped before the stream: \(cutShort)"
            _ = try? await store.updateLiveStream(stream, ifState: .ended)
        }
        let file = LiveRecordingFile.url(of: id, in: roll.paths)
        guard let held = try? LiveRecordingFile.open(stream: id, in: roll.paths, existing: true) else { return stream }
        defer { held.close() }
        let flat = roll.paths.live.appendingPathComponent("\(id).mp4")
        let made: Result<FragmentedMP4Flattener.Summary, LiveRecordingError> = await pool.run {
            do throws(LiveRecordingError) { return .success(try FragmentedMP4Flattener.flatten(file, to: flat)) } catch { return .failure(error) }
        }
        switch made {
        case .failure(.noMedia):
            log?("live stream \(id): ended with nothing recorded")
        case let .failure(error):
            log?("live stream \(id): no recording: \(error.description)")
            stream.error = error.description
            _ = try? await store.updateLiveStream(stream, ifState: .ended)
        case let .success(summary):
            var options = AddOptions(mode: .move, title: stream.title, owner: stream.owner)
            options.originalName = "live-\(id).mp4"
            var recording: Int64?
            do {
                recording = try await roll.add([flat.path], options: options).first?.id
            } catch {
                if case let .duplicate(_, existing) = error { recording = existing } else {
                    log?("live stream \(id): the recording was not added: \(error.description)")
                    stream.error = error.description
                }
            }
            try? DurableFile.remove(flat)
            stream.recordingID = recording
            guard (try? await store.updateLiveStream(stream, ifState: .ended)) == true else { return stream }
            if let recording {
                log?("live stream \(id): recording \(recording) (\(String(format: "%.1f", summary.duration)) s) in the roll")
                _ = try? await roll.emit(.live(.liveRecordingReady, stream))
                await ready?(stream, recording)
            }
        }
        try? DurableFile.remove(file)
        return stream
    }

    /// Marks stream `id` ended if it is not, emitting `live.ended` when this call did it.
    /// - Returns: the stream, nil when there is none (or the catalog cannot be read).
    @discardableResult
    public func end(_ id: Int64) async -> LiveStream? {
        guard let (stream, endedNow, _) = try? await roll.endLiveStream(id: id, clock: clock) else { return nil }
        if endedNow { log?("live stream \(id): ended") }
        return stream
    }

    /// Finishes every stream whose recording nobody holds (its server stopped or died mid-stream):
    /// run at start and now and then. A stream `active` with no recording file at all (its server
    /// died before the first byte) is ended too.
    /// - Returns: the ids finished.
    @discardableResult
    public func recover() async -> [Int64] {
        var finished: [Int64] = []
        for id in LiveRecordingFile.abandoned(in: roll.paths) {
            log?("live stream \(id): its server stopped mid-stream; making its recording")
            await finish(id)
            finished.append(id)
        }
        let active = (try? await store.liveStreams(before: nil, limit: Int.max, ownedBy: nil)) ?? []
        for stream in active where stream.state == .active {
            // The file is made before the row goes active, and removed after it is ended.
            guard !FileManager.default.fileExists(atPath: LiveRecordingFile.url(of: stream.id, in: roll.paths).path) else { continue }
            _ = await end(stream.id)
            finished.append(stream.id)
        }
        return finished
    }
}
