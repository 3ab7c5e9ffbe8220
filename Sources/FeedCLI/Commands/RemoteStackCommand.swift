import ArgumentParser
import FeedClient
import FeedCore
import FeedRemote
import Foundation

/// `feed remote stack FRONT BACK -o OUT --server URL`: the server stacks, the output comes back.
struct RemoteStackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stack",
        abstract: "Stack two clips on a feed serve and download the result.",
        discussion: """
            Pushes FRONT and BACK as 'feed push' does (resumable; or names recordings already in the \
            server's roll with --front-recording / --back-recording), queues a stack job with the \
            options given (POST /jobs/stack; they mean what they mean for 'feed stack'), follows the \
            job's events with the progress line of 'feed stack', and downloads the result into a \
            hidden temporary file next to -o, renamed at the end. The result also stays in the \
            server's roll. The summary goes to stdout: one line, or with --json one object with \
            output, width, height, fps, duration, bytes, seconds, job_id and recording_id.
            Ctrl-C (SIGINT) or SIGTERM while the job runs cancels it on the server (DELETE \
            /jobs/ID) and leaves no output.
            Exit status: as 'feed stack': 64 bad option or no --server, 65 the job failed on the \
            server (its message) or an input is not media, 66 an input does not exist, 73 the \
            output exists without --force, 74 the server cannot be reached or the download failed, \
            77 a token is needed or wrong, 130 interrupted.

            EXAMPLES:
              export FEED_SERVER=http://127.0.0.1:8080
              feed remote stack front.mp4 back.mp4 -o out.mp4
              feed remote stack --front-recording 3 --back-recording 4 -o out.mp4
              feed remote stack front.mp4 back.mp4 -o out.mp4 --sync audio --json
            """
    )

    @Argument(help: "The front camera clip (not with --front-recording).") var front: String?
    @Argument(help: "The back camera clip (not with --back-recording).") var back: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Use this recording of the server's roll as the front clip.", valueName: "id")) var frontRecording: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Use this recording of the server's roll as the back clip.", valueName: "id")) var backRecording: Int?
    @Option(name: [.short, .long], help: "Output file.") var output: String
    @Flag(help: "Replace the output file if it exists.") var force = false
    @OptionGroup var server: ServerOptions
    @Option(help: "The recording's title on the server (one line).") var title: String?
    @Option(help: "vstack, hstack or pip.") var layout: StackOptions.Layout?
    @Option(help: "Which clip goes first (top or left): back or front.") var top: StackOptions.Side?
    @Option(parsing: .unconditional, help: "Common width of the pictures (hstack: total width).") var width: Int?
    @Option(help: ArgumentHelp("Fixed output size, e.g. 1080x1920.", valueName: "WxH")) var size: StackOptions.Size?
    @Option(help: "With --size: pad (black bars) or crop.") var fit: StackOptions.Fit?
    @Option(parsing: .unconditional, help: "Output frame rate.") var fps: Double?
    // Unconditional: `--offset -1.5` (what `feed sync` prints when the front started first) is
    // a value, not an option.
    @Option(parsing: .unconditional, help: "Seconds the front starts after the back (negative: before).") var offset: Double?
    @Option(help: ArgumentHelp("Find the offset from the clips' sound; not with --offset.", valueName: "audio")) var sync: StackOptions.Sync?
    @Option(help: "shortest or longest.") var until: StackOptions.Until?
    @Option(help: "Whose sound to keep: back, front or none.") var audio: StackOptions.Audio?
    @Option(help: "Encoder preset, ultrafast … veryslow.") var preset: String?
    @Option(parsing: .unconditional, help: "Constant rate factor 0–51.") var crf: Int?
    @Option(help: "h264 or hevc.") var codec: VideoCodec?
    @OptionGroup(title: "Sending") var sending: PushOptions
    @Flag(help: "Print a JSON summary on stdout.") var json = false

    func validate() throws {
        _ = try sources()
        if let title, title.contains(where: \.isNewline) { throw ValidationError("--title must be one line") }
        // The stack's own rules, the ones `feed stack` and the server check, before anything is sent.
        do throws(StackError) { try stackOptions().validate() } catch { throw ValidationError(error.description) }
    }

    /// The options given, on the library's defaults: what the server will check.
    func stackOptions() -> StackOptions {
        var options = StackOptions(output: output)
        if let layout { options.layout = layout }
        if let top { options.top = top }
        options.width = width
        options.size = size
        if let fit { options.fit = fit }
        options.fps = fps
        if let offset { options.offset = offset }
        options.sync = sync
        if let until { options.until = until }
        options.audio = audio
        if let preset { options.preset = preset }
        if let crf { options.crf = crf }
        if let codec { options.codec = codec }
        return options
    }

    /// The two sources: a file to push or a recording id, front then back.
    func sources() throws -> (front: Source, back: Source) {
        var files = [front, back].compactMap { $0 }
        func take(_ recording: Int?, _ side: String) throws -> Source {
            if let recording { return .recording(recording) }
            guard !files.isEmpty else { throw ValidationError("give the \(side) clip, or --\(side)-recording ID") }
            return .file(files.removeFirst())
        }
        let sources = (front: try take(frontRecording, "front"), back: try take(backRecording, "back"))
        if let extra = files.first { throw ValidationError("\(extra): one clip too many (--front-recording and --back-recording stand for clips)") }
        return sources
    }

    enum Source {
        case file(String)
        case recording(Int)
    }

    func options() -> Components.Schemas.StackRequest.OptionsPayload {
        typealias O = Components.Schemas.StackRequest.OptionsPayload
        return O(layout: layout.flatMap { O.LayoutPayload(rawValue: $0.rawValue) }, top: top.flatMap { O.TopPayload(rawValue: $0.rawValue) },
                 width: width, size: size.map { "\($0.width)x\($0.height)" }, fit: fit.flatMap { O.FitPayload(rawValue: $0.rawValue) },
                 fps: fps, offset: offset, sync: sync.flatMap { O.SyncPayload(rawValue: $0.rawValue) },
                 until: until.flatMap { O.UntilPayload(rawValue: $0.rawValue) }, audio: audio.flatMap { O.AudioPayload(rawValue: $0.rawValue) },
                 codec: codec.flatMap { O.CodecPayload(rawValue: $0.rawValue) }, preset: preset.flatMap { O.PresetPayload(rawValue: $0) }, crf: crf)
    }

    func run() async throws {
        let (frontSource, backSource) = try sources()
        for case let .file(path) in [frontSource, backSource] { try FilePush.check(path) }
        let target = OutputTarget(path: output, force: force)
        try target.check()
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        let started = ContinuousClock.now
        let summary = try await server.with { remote in
            let push = FilePush(server: remote, chunkSize: Int(sending.chunkSize.bytes),
                                bytesPerSecond: sending.limitRate.map { Int($0.bytes) }, retries: sending.retries)
            func source(_ source: Source) async throws -> Components.Schemas.JobSource {
                switch source {
                case let .recording(id): return .RecordingSource(.init(recording: Int64(id)))
                case let .file(path):
                    let pushed = try await push.push(path, title: nil, isCancelled: trap.isCaught)
                    return .RecordingSource(.init(recording: Int64(pushed.recordingID)))
                }
            }
            let request = Components.Schemas.StackRequest(front: try await source(frontSource), back: try await source(backSource),
                                                          title: title, options: options())
            let job = try await RemoteFailure.run(remote.url) {
                try await remote.client.api.queueStack(body: .json(request)).accepted.body.json
            }
            let done = try await follow(job: job.id, remote: remote, isCancelled: trap.isCaught)
            guard let recordingID = done.recordingId else {
                throw CommandFailure(description: "\(remote.url): job \(job.id) is done without a recording", kind: .io)
            }
            return try await RemoteFailure.run(remote.url) {
                let recording = try await remote.client.api.getRecording(path: .init(id: String(recordingID))).ok.body.json
                try await target.write(try await remote.client.recordingClip(id: recordingID), isCancelled: trap.isCaught)
                return RemoteStackSummary(output: output, recording: recording, jobID: job.id,
                                          seconds: (ContinuousClock.now - started) / .seconds(1))
            }
        }
        try StandardStream.output.write(json ? summary.json : summary.line)
    }

    /// Follows the job's events with the progress line until it ends; a failed job is exit 65
    /// with the server's message, a signal cancels it on the server (130).
    func follow(job id: Int, remote: RemoteServer, isCancelled: @escaping @Sendable () -> Bool) async throws -> Components.Schemas.Job {
        let line = StackProgressLine()
        defer { line.finish() }
        let started = ContinuousClock.now
        let last = JobBox()
        do {
            try await FilePush.untilCancelled(isCancelled) {
                for try await job in remote.client.jobUpdates(id: id) {
                    last.job = job
                    let elapsed = (ContinuousClock.now - started) / .seconds(1)
                    line.show(fraction: job.progress, elapsed: elapsed)
                }
            }
        } catch {
            if isCancelled() {
                _ = try? await remote.client.api.cancelJob(path: .init(id: String(id)))
                throw CommandFailure(description: "job \(id) on \(remote.url): interrupted; the job was cancelled", kind: .interrupted)
            }
            throw RemoteFailure(server: remote.url, error: FeedClientError(error))
        }
        guard let job = last.job else { throw CommandFailure(description: "\(remote.url): job \(id) sent no events", kind: .io) }
        switch job.state {
        case .done: return job
        case .failed, .dead:
            throw CommandFailure(description: "\(remote.url): job \(id) failed: \(job.error ?? "no reason given")", kind: .invalidData)
        case .cancelled:
            throw CommandFailure(description: "\(remote.url): job \(id) was cancelled on the server", kind: .invalidData)
        case .queued, .running:
            throw CommandFailure(description: "\(remote.url): job \(id): the event stream ended while it was \(job.state.rawValue)", kind: .io)
        }
    }
}

/// The last job an event stream gave (written by the stream's task, read after it ended).
private final class JobBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Components.Schemas.Job?

    var job: Components.Schemas.Job? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
