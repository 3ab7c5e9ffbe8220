import CFFmpeg
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Packages one clip as an adaptive HLS ladder in one pass (`feed hls`, `feed roll hls`, the
/// server's `/roll/{id}/hls/`): one decode, every rung encoded concurrently with key frames at
/// the same timestamps, the audio encoded once. Everything is written into a hidden temporary
/// folder beside `output` and renamed into place at the end, so a failure or a cancel leaves
/// nothing behind.
public struct HLSPackager: Sendable {
    public let input: String
    public let output: String
    public let options: HLSOptions
    /// Replace an existing output folder.
    public var replace = false

    public init(input: String, output: String, options: HLSOptions) {
        self.input = input
        self.output = output
        self.options = options
    }

    /// What was made.
    public struct Result: Sendable, Codable, Equatable {
        public var output: String
        public var duration: Double
        /// Wall seconds.
        public var seconds: Double
        public var audio: Bool
        public var variants: [HLSVariant]
    }

    /// Packages the clip; `progress` is called about four times a second with the pictures
    /// done and expected (`feed hls` draws `feed stack`'s progress line with it);
    /// `isCancelled` is polled after every picture, and a true answer stops with `.interrupted`.
    public func run(progress: (StackProgress) -> Void = { _ in },
                    isCancelled: () -> Bool = { false }) throws(HLSError) -> Result {
        let started = Date()
        try options.validate()
        try Self.refuseToReplace(output, input: input, replace: replace)
        let info: MediaInfo
        do { info = try MediaProbe.probe(path: input) } catch { throw .media(error) }
        let rungs = HLSRung.ladder(width: info.displayWidth, height: info.displayHeight, options: options)
        let work = try Self.temporaryFolder(beside: output)
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(atPath: work) } }

        let hasAudio = options.audio && info.audioCodec != nil
        let expected = Int((info.duration * (info.fps > 0 ? info.fps : 30)).rounded())
        let frameRate = FrameRate.standard(info.nominalFPS)
        let (codecs, frames) = try encode(rungs: rungs, into: work, audio: hasAudio, expectedFrames: expected,
                                          progress: progress, isCancelled: isCancelled)
        // The audio rendition's rate counts in every variant's BANDWIDTH (RFC 8216 §4.3.4.2).
        var audioRate = (peak: 0, average: 0)
        if hasAudio { audioRate = try Self.finishPlaylist(folder: work + "/" + HLSVariant.audioFolder).rates }
        var variants: [HLSVariant] = []
        for (index, rung) in rungs.enumerated() {
            let (playlist, rates) = try Self.finishPlaylist(folder: work + "/" + rung.name)
            variants.append(HLSVariant(name: rung.name, width: rung.width, height: rung.height, bandwidth: rates.peak + audioRate.peak,
                                       averageBandwidth: rates.average + audioRate.average,
                                       codecs: hasAudio ? codecs[index] + ",mp4a.40.2" : codecs[index],
                                       frameRate: frameRate, segments: playlist.segments.count, frames: frames[index]))
        }
        try Self.write(HLSVariant.master(variants, audio: hasAudio), to: work + "/" + HLSMaster.fileName)
        try DASHManifest.write(folder: work)
        if isCancelled() { throw .interrupted }
        try Self.moveIntoPlace(work, output, replace: replace)
        keep = true
        return Result(output: output, duration: info.duration, seconds: Date().timeIntervalSince(started), audio: hasAudio, variants: variants)
    }

    /// Runs the shim's one-pass encoder; the codecs strings and picture counts per rung.
    /// A finished playlist of the muxer's, parsed and written back in our own form, with its
    /// peak and average bit rates from its segments' sizes.
    private static func finishPlaylist(folder: String) throws(HLSError) -> (HLSPlaylist, rates: (peak: Int, average: Int)) {
        let playlist = try HLSPlaylist.read(path: folder + "/index.m3u8")
        try write(playlist.text, to: folder + "/index.m3u8")
        return (playlist, HLSVariant.bandwidths(playlist, folder: folder))
    }

    private func encode(rungs: [HLSRung], into work: String, audio: Bool, expectedFrames: Int,
                        progress: (StackProgress) -> Void, isCancelled: () -> Bool) throws(HLSError) -> ([String], [Int]) {
        for name in rungs.map(\.name) + (audio ? [HLSVariant.audioFolder] : []) {
            guard mkdir(work + "/" + name, 0o755) == 0 else {
                throw .cannotCreate(path: output, reason: String(cString: strerror(errno)))
            }
        }
        let folders = rungs.map { strdup(work + "/" + $0.name) }
        let audioFolder = strdup(work + "/" + HLSVariant.audioFolder)
        let threads = options.threads > 0 ? rungs.map { _ in options.threads } : Self.threads(for: rungs)
        defer {
            folders.forEach { free($0) }
            free(audioFolder)
        }
        var specs = rungs.enumerated().map { index, rung in
            fs_hls_rung(folder: folders[index], width: Int32(rung.width), height: Int32(rung.height), maxrate: Int32(clamping: rung.maxrate),
                        threads: Int32(threads[index]))
        }
        var handle: OpaquePointer?
        defer { fs_hls_free(&handle) }
        var detail = [CChar](repeating: 0, count: 512)
        let opened = specs.withUnsafeMutableBufferPointer { buffer in
            options.preset.withCString { preset in
                var settings = fs_hls_options()
                settings.rungs = UnsafePointer(buffer.baseAddress)
                settings.rung_count = Int32(buffer.count)
                settings.codec = options.codec == .hevc ? Int32(FS_CODEC_HEVC.rawValue) : Int32(FS_CODEC_H264.rawValue)
                settings.preset = preset
                settings.crf = Int32(options.crf)
                settings.segment_seconds = options.segmentSeconds
                settings.gop_seconds = options.gopSeconds
                settings.audio = audio ? 1 : 0
                settings.audio_folder = UnsafePointer(audioFolder)
                settings.threads = Int32(options.threads)
                return fs_hls_open(input, &settings, &handle, &detail, detail.count)
            }
        }
        if opened < 0 { throw .media(MediaError.opening(input, code: opened, detail: detail.cText)) }
        let started = Date()
        var pictures = 0, shown = 0.0
        while true {
            if isCancelled() { throw .interrupted }
            var seconds = 0.0
            let code = fs_hls_step(handle, &seconds)
            if code == FS_EOF { break }
            if code < 0 { throw .media(.decodeFailed(path: input, reason: MediaError.text(code))) }
            pictures += 1
            let elapsed = Date().timeIntervalSince(started)
            if elapsed - shown >= 0.25 {
                shown = elapsed
                progress(StackProgress(frames: pictures, expectedFrames: max(expectedFrames, pictures), elapsed: elapsed))
            }
        }
        let finished = fs_hls_finish(handle, &detail, detail.count)
        if finished < 0 {
            throw .media(.writeFailed(path: output, reason: detail.cText.isEmpty ? MediaError.text(finished) : detail.cText))
        }
        var codecs: [String] = [], frames: [Int] = []
        for index in rungs.indices {
            var text = [CChar](repeating: 0, count: 64)
            fs_hls_codecs(handle, Int32(index), &text, text.count)
            codecs.append(text.cText)
            frames.append(Int(fs_hls_pictures(handle, Int32(index))))
        }
        return (codecs, frames)
    }

    /// Encoder threads per rung when not given: each rung's share of the ladder's pixels times
    /// the cores, rounded up. On 2 cores a 1080/720/540/360 ladder gets 2, 1, 1, 1: the top
    /// rung (55 % of the work) spreads over both cores while the small ones run beside it on
    /// one thread each, and fewer x264 frame threads hold fewer pictures (measured on a 10 s
    /// 1080x1920 clip: 0.92x the wall time and 0.81x the memory of every encoder choosing).
    static func threads(for rungs: [HLSRung], cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> [Int] {
        let total = Double(rungs.reduce(0) { $0 + $1.width * $1.height })
        return rungs.map { max(1, Int((Double($0.width * $0.height) / total * Double(cores)).rounded(.up))) }
    }

    /// `.<name>.<pid>-<random>.part` beside `output`, created empty.
    static func temporaryFolder(beside output: String) throws(HLSError) -> String {
        let trimmed = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
        let slash = trimmed.lastIndex(of: "/")
        let parent = slash.map { String(trimmed[...$0]) } ?? ""
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        let path = "\(parent).\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).part"
        guard mkdir(path, 0o755) == 0 else {
            throw .cannotCreate(path: output, reason: String(cString: strerror(errno)))
        }
        return path
    }

    static func write(_ text: String, to path: String) throws(HLSError) {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw .cannotCreate(path: path, reason: error.localizedDescription)
        }
    }

    /// Refuses an existing `output` unless `replace`, and then unless it is a ladder (only
    /// ladder files in it) that does not hold `input`.
    static func refuseToReplace(_ output: String, input: String, replace: Bool) throws(HLSError) {
        guard FileManager.default.fileExists(atPath: output) else { return }
        guard replace else { throw .outputExists(path: output) }
        if LadderFolder.contains(output, input) {
            throw .notALadder(path: output, entry: URL(fileURLWithPath: input).lastPathComponent + " (the input)")
        }
        if let entry = LadderFolder.stranger(in: output) { throw .notALadder(path: output, entry: entry) }
    }

    /// Renames the finished folder onto `output`; an existing output is replaced only if asked,
    /// and then only once the new one is complete (the old one is moved aside, then removed).
    static func moveIntoPlace(_ work: String, _ output: String, replace: Bool) throws(HLSError) {
        let target = output.hasSuffix("/") && output.count > 1 ? String(output.dropLast()) : output
        var aside: String?
        if FileManager.default.fileExists(atPath: target) {
            guard replace else { throw .outputExists(path: output) }
            // Checked again: the folder may have changed while the ladder was encoded.
            if let entry = LadderFolder.stranger(in: target) { throw .notALadder(path: output, entry: entry) }
            let old = work + ".old"
            guard rename(target, old) == 0 else { throw .cannotCreate(path: output, reason: String(cString: strerror(errno))) }
            aside = old
        }
        guard rename(work, target) == 0 else {
            let reason = String(cString: strerror(errno))
            if let aside { rename(aside, target) }
            throw .cannotCreate(path: output, reason: reason)
        }
        if let aside { try? FileManager.default.removeItem(atPath: aside) }
    }
}
