import CFFmpeg
import Foundation

/// Merges a front and a back camera clip into one upright, synced MP4 (`feed stack`).
///
/// Both inputs decode on their own threads into small queues; for each output instant the
/// compositor takes, from each input, the latest picture at or before it and scales it upright
/// straight into its part of the encoder's frame. The output is written to a temporary file next
/// to `options.output` and renamed at the end; any failure or cancellation removes it.
public final class Stacker {
    public let frontPath: String
    public let backPath: String
    /// The options; with `sync`, `offset` is the one found once `run` has started.
    public private(set) var options: StackOptions

    public init(front: String, back: String, options: StackOptions) {
        frontPath = front
        backPath = back
        self.options = options
    }

    /// Runs the stack. `progress` is called about four times a second and at the end; `isCancelled`
    /// is polled before every frame (return true after SIGINT/SIGTERM to stop with `.interrupted`).
    public func run(progress: (StackProgress) -> Void = { _ in },
                    isCancelled: () -> Bool = { false }) throws(StackError) -> StackResult {
        let started = ContinuousClock.now
        func elapsed() -> Double {
            let d = ContinuousClock.now - started
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        try options.validate()
        var syncConfidence: Double?
        if options.sync == .audio {
            do throws(SyncError) {
                let found = try AudioSync.offset(front: frontPath, back: backPath, options: options.syncSearch)
                options.offset = found.offset
                syncConfidence = found.confidence
            } catch { throw .sync(error) }
        }
        let (back, front) = try Self.openInputs(back: backPath, front: frontPath, threads: options.threads)
        defer { front.stop(); back.stop() }

        let geometry = try StackGeometry.compute(front: (front.info.displayWidth, front.info.displayHeight),
                                                 back: (back.info.displayWidth, back.info.displayHeight), options: options)
        let fps = options.fps ?? Self.defaultFPS(front.info.nominalFPS, back.info.nominalFPS)
        let frontEnd = front.info.duration + options.offset, backEnd = back.info.duration
        if options.until == .shortest && frontEnd <= 0 { throw .noOverlap(offset: options.offset) }
        let expected = options.until == .shortest ? min(frontEnd, backEnd) : max(frontEnd, backEnd)
        let audio = try audioTrack(front: front, back: back)
        if !options.force && !options.outputIsDefault && FileManager.default.fileExists(atPath: options.output) {
            throw .outputExists(path: options.output)
        }

        let writer: VideoWriter
        do {
            writer = try VideoWriter(path: options.output, width: geometry.width, height: geometry.height, fps: fps,
                                     codec: options.codec, preset: options.preset, crf: options.crf, audio: audio?.format,
                                     replace: options.force, nextName: options.outputIsDefault ? StackOptions.nextDefaultName(after:) : nil)
        } catch { throw .media(error) }
        let inputs = [StackInput(decoder: back, shift: 0, slot: geometry.back),
                      StackInput(decoder: front, shift: options.offset, slot: geometry.front)]
        back.start()
        front.start()

        var frames = 0
        var reported = 0.0
        let expectedFrames = max(1, Int((expected * fps).rounded(.up)))
        do {
            while true {
                if isCancelled() { throw StackError.interrupted }
                let t = Double(frames) / fps
                for input in inputs { try input.advance(to: t) }
                if frames == 0, let empty = inputs.first(where: { $0.current == nil }) {
                    throw StackError.media(.decodeFailed(path: empty.decoder.path, reason: "no video frame could be decoded"))
                }
                let over = inputs.map { $0.isOver(at: t) }
                if options.until == .shortest ? over.contains(true) : !over.contains(false) { break }
                try writer.drawFrame(time: t) { planes, strides in
                    if geometry.needsFill {
                        fs_fill(Int32(geometry.width), Int32(geometry.height), Int32(FS_PIX_YUV420P.rawValue), planes, strides, 0, 0, 0)
                    }
                    for input in inputs {
                        let code = input.draw(planes: planes, strides: strides)
                        if code < 0 { return code }
                    }
                    return 0
                }
                frames += 1
                try audio?.write(upTo: Double(frames) / fps, into: writer)
                let now = elapsed()
                if now - reported >= 0.25 {
                    reported = now
                    progress(StackProgress(frames: frames, expectedFrames: max(expectedFrames, frames), elapsed: now))
                }
            }
            if frames == 0 { throw StackError.noOverlap(offset: options.offset) }
            try writer.finish()
        } catch let error as StackError {
            throw error
        } catch let error as MediaError {
            throw .media(error)
        } catch {
            throw .media(.writeFailed(path: options.output, reason: "\(error)"))
        }
        progress(StackProgress(frames: frames, expectedFrames: frames, elapsed: elapsed()))
        // Where the file went: a default name taken meanwhile gave way to the next.
        let output = writer.path
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.int64Value ?? -1
        return StackResult(output: output, width: geometry.width, height: geometry.height, fps: fps, frames: frames,
                           duration: Double(frames) / fps, bytes: bytes, seconds: elapsed(),
                           audio: audio.map { $0.side.rawValue }, offset: options.offset, syncConfidence: syncConfidence)
    }

    /// Opens both inputs at once, the front on a second thread: each open reads and decodes the
    /// first packets, so this takes the slower of the two instead of their sum. When both fail,
    /// the back's error is the one reported, as if they had been opened in turn.
    static func openInputs(back: String, front: String, threads: Int) throws(StackError) -> (InputDecoder, InputDecoder) {
        let frontResult = OpenedInput()
        let thread = JoinableThread(name: "feed.open") {
            frontResult.result = Result { () throws(MediaError) in try InputDecoder(path: front, threads: threads) }
        }
        let backResult = Result { () throws(MediaError) in try InputDecoder(path: back, threads: threads) }
        thread.join()
        do {
            return (try backResult.get(), try frontResult.result!.get())
        } catch { throw .media(error) }
    }

    /// The higher of the two nominal rates, snapped to a standard rate (``FrameRate/standard(_:)``),
    /// at most 60; 30 when neither is known.
    static func defaultFPS(_ a: Double, _ b: Double) -> Double {
        FrameRate.standard(max(a.isFinite ? a : 0, b.isFinite ? b : 0))
    }

    /// The audio source the options ask for (default: back, else front, else none).
    private func audioTrack(front: InputDecoder, back: InputDecoder) throws(StackError) -> AudioTrack? {
        let side = options.audio ?? (back.info.audioCodec != nil ? .back : front.info.audioCodec != nil ? .front : .none)
        let input = side == .front ? front : back
        switch side {
        case .none: return nil
        case .back, .front:
            if input.info.audioCodec == nil { throw .noAudio(path: input.path) }
            do {
                return try AudioTrack(path: input.path, side: side, shift: side == .front ? options.offset : 0)
            } catch { throw .media(error) }
        }
    }
}

/// The front input's open result, handed from the opening thread to the caller (the semaphore orders the accesses).
private final class OpenedInput: @unchecked Sendable {
    var result: Result<InputDecoder, MediaError>?
}
