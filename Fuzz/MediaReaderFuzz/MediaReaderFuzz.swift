import FeedCore
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer entry point for the media reader: bytes → a file → `MediaReader` → frames and audio.
///
/// A target of the package over FeedCore and its CFFmpeg shim (see Package.swift and Fuzz/build.sh).
/// Each input is written to `input.<ext>` in a private folder (under /dev/shm when it exists);
/// the extension is picked by `size % extensions.count` so an input always gets the same one
/// (FFmpeg's probe looks at it). Then, with the network not allowed and one decoder thread:
/// open (video + audio decoders) → `info` → up to 30 video frames, the first four converted
/// (aspect-kept, odd-size yuv420p, full size or fixed size, cropped through `Scaler`) → a seek
/// and one more frame → when the file has audio, a second reader decodes a few audio chunks.
///
/// A crash, a trap, an ASan/LSan report or a libFuzzer timeout is a finding; so is a broken
/// invariant, which traps on purpose:
/// - every failure is a `MediaError` of a kind that step may throw (never `missingFile`,
///   `cannotCreate`, `writeFailed`), and its description is one non-empty line naming the file;
/// - `info` keeps its promises: coded size within the pixel limit, rotation 0/90/180/270,
///   display size the coded size turned, audio fields all nil or all set, `bytes` the file size;
/// - pictures and frames have the size asked for, within the limit; audio chunks hold whole
///   frames of the asked channel count, at most `maxFrames`.
@_cdecl("LLVMFuzzerTestOneInput")
public func mediaReaderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = MediaFuzzFile.write(data, size)
    defer { unlink(path) }

    let reader: MediaReader
    do {
        reader = try MediaReader(path: path, allowNetwork: false, video: true, audio: true, threads: 1)
    } catch {
        checkOpenError(error, path: path)
        trace("open: \(error)")
        return 0
    }
    checkInfo(reader.info, size: size)
    trace("info: \(reader.info)")
    decodeVideo(reader, path: path, size: size)
    if reader.info.audioCodec != nil { decodeAudio(path: path, size: size) }
    return 0
}

/// The extensions inputs are saved with; chosen by the input's size.
let mediaFuzzExtensions = ["mp4", "mov", "mkv", "webm", "avi", "ts", "m4a", "bin", "m3u8", "ffconcat", "mpg"]

/// The private folder and the one input file in it; removed at exit.
enum MediaFuzzFile {
    static let folder: String = {
        var base = "/dev/shm"
        if access(base, W_OK) != 0 { base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp" }
        var template = Array("\(base)/feed-media-fuzz-\(getpid())-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { fatalError("harness: cannot create a folder in \(base)") }
        template.removeLast()  // the NUL
        let folder = String(decoding: template.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        atexit { rmdir(MediaFuzzFile.folder) }
        return folder
    }()

    static func write(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
        let path = "\(folder)/input.\(mediaFuzzExtensions[size % mediaFuzzExtensions.count])"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { fatalError("harness: cannot create \(path)") }
        var done = 0
        while done < size, let data {
            let n = Glibc.write(fd, data + done, size - done)
            guard n > 0 else { fatalError("harness: cannot write \(path)") }
            done += n
        }
        close(fd)
        return path
    }
}

private func checkInfo(_ info: MediaInfo, size: Int) {
    check(info.codedWidth > 0 && info.codedHeight > 0 && info.codedWidth <= 16384 && info.codedHeight <= 16384
          && info.codedWidth * info.codedHeight <= 100_000_000, "coded size \(info.codedWidth)x\(info.codedHeight) past the limit")
    check([0, 90, 180, 270].contains(info.rotation), "rotation \(info.rotation)")
    let turned = info.rotation % 180 == 90
    check(info.displayWidth == (turned ? info.codedHeight : info.codedWidth)
          && info.displayHeight == (turned ? info.codedWidth : info.codedHeight), "display size is not the coded size turned")
    check(!info.container.isEmpty && !info.videoCodec.isEmpty, "empty container or codec name")
    let audio = [info.audioCodec == nil, info.audioSampleRate == nil, info.audioChannels == nil]
    check(audio.allSatisfy { $0 } || audio.allSatisfy { !$0 }, "audio fields half set: \(info)")
    check(info.bytes == Int64(size), "bytes \(info.bytes) for a \(size)-byte file")
    check(info.fps.isFinite && info.fps >= 0, "fps \(info.fps)")
    check(info.duration.isFinite, "duration \(info.duration)")
}

private func decodeVideo(_ reader: MediaReader, path: String, size: Int) {
    let info = reader.info
    let scaler = Scaler()
    do {
        frames: for index in 0..<30 {
            switch index {
            case 0:  // one side given: the other follows the aspect ratio (when it is not absurd)
                let long = max(info.displayWidth, info.displayHeight), short = min(info.displayWidth, info.displayHeight)
                let frame = long <= 16 * short ? try reader.nextVideoFrame(width: 48) : try reader.nextVideoFrame(width: 48, height: 48)
                guard let frame else { trace("video: end after \(index) frames"); return }
                checkFrame(frame, width: 48, height: nil, format: .rgb24)
            case 1:  // odd size in yuv420p: rounded up to even
                guard let frame = try reader.nextVideoFrame(width: 33, height: 17, format: .yuv420p) else { trace("video: end after \(index) frames"); return }
                checkFrame(frame, width: 34, height: 18, format: .yuv420p)
            case 2:  // the display size when small, else a fixed one
                let small = info.displayWidth * info.displayHeight <= 256 * 256
                guard let frame = try (small ? reader.nextVideoFrame() : reader.nextVideoFrame(width: 40, height: 30)) else { trace("video: end after \(index) frames"); return }
                checkFrame(frame, width: nil, height: nil, format: .rgb24)
            case 3:  // the middle quarter, through Scaler with a crop
                guard let picture = try reader.nextPicture() else { trace("video: end after \(index) frames"); return }
                checkPicture(picture)
                let turned = info.rotation % 180 == 90
                let w = turned ? picture.height : picture.width, h = turned ? picture.width : picture.height
                let crop = Scaler.Rect(x: w / 4, y: h / 4, width: max(1, w / 2), height: max(1, h / 2))
                let frame = try scaler.frame(from: picture, rotation: info.rotation, width: 16, height: 16, format: .yuv420p,
                                             crop: crop, path: path)
                checkFrame(frame, width: 16, height: 16, format: .yuv420p)
            default:
                guard let picture = try reader.nextPicture() else { trace("video: end after \(index) frames"); break frames }
                checkPicture(picture)
                continue
            }
        }
        if info.duration > 0 {
            try reader.seek(to: info.duration / 2)
            if let picture = try reader.nextPicture() { checkPicture(picture) }
        }
        trace("video: decoded")
    } catch {
        checkDecodeError(error, path: path)
        trace("video: \(error)")
    }
}

private func decodeAudio(path: String, size: Int) {
    let rate = size.isMultiple(of: 2) ? 48000 : 22050, channels = 1 + size % 2
    do {
        let reader = try MediaReader(path: path, allowNetwork: false, video: false, audio: true, threads: 1)
        for _ in 0..<16 {
            guard let chunk = try reader.readAudio(sampleRate: rate, channels: channels, maxFrames: 4096) else {
                trace("audio: end")
                return
            }
            trace("audio: \(chunk.frames) frames at \(chunk.time) s")
            check(chunk.channels == channels && chunk.sampleRate == rate, "audio chunk \(chunk.channels) ch \(chunk.sampleRate) Hz")
            check(chunk.samples.count == chunk.frames * channels && chunk.frames > 0 && chunk.frames <= 4096,
                  "audio chunk of \(chunk.samples.count) samples")
        }
    } catch {
        checkDecodeError(error, path: path)
        trace("audio: \(error)")
    }
}

/// With MEDIA_FUZZ_VERBOSE set, says what each step did (for looking at one input).
private let verbose = getenv("MEDIA_FUZZ_VERBOSE") != nil
private func trace(_ line: @autoclosure () -> String) {
    if verbose { let text = line() + "\n"; _ = Glibc.write(2, text, text.utf8.count) }
}

private func checkPicture(_ picture: Picture) {
    check(picture.width > 0 && picture.height > 0 && picture.width <= 16384 && picture.height <= 16384
          && picture.width * picture.height <= 100_000_000, "picture \(picture.width)x\(picture.height) past the limit")
}

private func checkFrame(_ frame: Frame, width: Int?, height: Int?, format: Frame.Format) {
    check(frame.format == format, "frame format \(frame.format)")
    if let width { check(frame.width == width, "frame width \(frame.width), asked \(width)") }
    if let height { check(frame.height == height, "frame height \(frame.height), asked \(height)") }
    let planes = format == .rgb24 ? frame.width * 3 * frame.height
                                  : frame.width * frame.height + 2 * ((frame.width + 1) / 2) * ((frame.height + 1) / 2)
    check(frame.bytes.count == planes, "frame of \(frame.bytes.count) bytes")
}

private func checkOpenError(_ error: MediaError, path: String) {
    checkLine(error, path: path)
    switch error {
    case .notMedia, .noVideoStream, .refused: break
    case .unavailable: fatalError("harness: FFmpeg cannot be loaded: \(error)")
    default: check(false, "open failed with \(error)")
    }
}

private func checkDecodeError(_ error: MediaError, path: String) {
    checkLine(error, path: path)
    switch error {
    case .notMedia, .noVideoStream, .refused, .decodeFailed: break  // the audio reader's open may fail too
    default: check(false, "decoding failed with \(error)")
    }
}

private func checkLine(_ error: MediaError, path: String) {
    let text = error.description
    check(text.hasPrefix(path + ": ") && text.count > path.count + 2, "description \(text.debugDescription)")
    check(!text.contains("\n") && !text.contains("\r"), "multi-line description \(text.debugDescription)")
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant: " + message()) }
}
