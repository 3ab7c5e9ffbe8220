import CFFmpeg
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes an MP4 (H.264 with libx264 or HEVC with libx265, yuv420p; AAC audio; `+faststart`).
///
/// Writes to a hidden temporary file in the destination folder and renames it onto `path` in
/// `finish()`; if the writer is released unfinished, the temporary file is removed. Not thread-safe.
public final class VideoWriter {
    private var handle: OpaquePointer?
    /// The final file (after ``finish()``, the name it took: see `nextName`).
    public private(set) var path: String
    /// The file being written until `finish()` renames it.
    public let temporaryPath: String
    public let width: Int
    public let height: Int
    public let audio: AudioFormat?
    /// Whether `finish()` may replace a file at `path`.
    private let replace: Bool
    /// The name to try when `path` is taken at `finish()` (nil: fail instead).
    private let nextName: (@Sendable (String) -> String)?
    private var finished = false

    /// Creates the temporary file and opens the encoders. `fps` is the nominal rate (timestamps come
    /// with each frame); `rotation` (0/90/180/270) tags the video with a display matrix; `crf` 0…51.
    /// An existing `path` is replaced at `finish()` only if `replace`; without it, a name taken
    /// meanwhile gives way to `nextName(path)` when given (a name feed chose, not the user), else
    /// fails. Throws `.cannotCreate` when the folder is missing or unwritable or the file exists,
    /// `.writeFailed` for encoder problems.
    public init(path: String, width: Int, height: Int, fps: Double, codec: VideoCodec = .h264, preset: String = "veryfast",
                crf: Int = 23, audio: AudioFormat? = nil, rotation: Int = 0, threads: Int = 0, replace: Bool = false,
                nextName: (@Sendable (String) -> String)? = nil) throws(MediaError) {
        var path = path
        if !replace, let nextName {
            while access(path, F_OK) == 0 { path = nextName(path) }
        }
        if !replace && access(path, F_OK) == 0 { throw .cannotCreate(path: path, reason: "file exists") }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryPath = "\(folder).\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).part"
        self.path = path
        self.replace = replace
        self.nextName = nextName
        self.width = width
        self.height = height
        self.audio = audio
        let (num, den) = VideoWriter.rational(fps)
        var options = fs_writer_options()
        options.width = Int32(width)
        options.height = Int32(height)
        options.fps_num = num
        options.fps_den = den
        options.codec = codec == .hevc ? Int32(FS_CODEC_HEVC.rawValue) : Int32(FS_CODEC_H264.rawValue)
        options.crf = Int32(crf)
        options.rotation = Int32(rotation)
        options.audio_rate = Int32(audio?.sampleRate ?? 0)
        options.audio_channels = Int32(audio?.channels ?? 0)
        options.threads = Int32(threads)
        var detail = [CChar](repeating: 0, count: 512)
        let code = preset.withCString { preset in
            options.preset = preset
            return fs_writer_open(temporaryPath, &options, &handle, &detail, detail.count)
        }
        if code < 0 {
            unlink(temporaryPath)
            let reason = detail.cText.isEmpty ? MediaError.text(code) : detail.cText
            if code == FS_ERR_UNAVAILABLE { throw .unavailable(path: path, reason: reason) }
            let creating = [ENOENT, EACCES, EROFS, ENOTDIR, EISDIR, EPERM, ENOSPC].contains(-code)
            throw creating ? .cannotCreate(path: path, reason: reason) : .writeFailed(path: path, reason: reason)
        }
    }

    deinit {
        fs_writer_free(&handle)
        if !finished { unlink(temporaryPath) }
    }

    /// Encodes `frame` (the writer's size, rgb24 or yuv420p) shown at `frame.time`; times must increase.
    public func append(_ frame: Frame) throws(MediaError) {
        guard frame.width == width, frame.height == height else {
            throw .writeFailed(path: path, reason: "frame is \(frame.width)x\(frame.height), writer is \(width)x\(height)")
        }
        var frame = frame
        let format = frame.format.raw, time = frame.time
        let code = frame.withPlanes { planes, strides in
            planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 3) {
                fs_writer_write_video(handle, format, $0, strides, time)
            }
        }
        try check(code, "video frame at \(frame.time) s")
    }

    /// Lets `draw` fill the writer's own yuv420p frame in place (no copy), then encodes it at `time`.
    /// `draw` gets three plane pointers and strides and returns a shim code (0 = fine).
    func drawFrame(time: Double, _ draw: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, UnsafePointer<Int32>) -> Int32) throws(MediaError) {
        var planes: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil]
        var strides: [Int32] = [0, 0, 0]
        try check(fs_writer_frame(handle, &planes, &strides), "frame buffer")
        let drawn = planes.withUnsafeBufferPointer { p in strides.withUnsafeBufferPointer { s in draw(p.baseAddress!, s.baseAddress!) } }
        if drawn < 0 { throw .decodeFailed(path: path, reason: "cannot draw frame at \(time) s: \(MediaError.text(drawn))") }
        try check(fs_writer_submit(handle, time), "video frame at \(time) s")
    }

    /// Queues interleaved float samples at the writer's audio format; whole AAC frames are encoded as they fill.
    public func appendAudio(_ samples: [Float]) throws(MediaError) {
        guard let audio else { throw .writeFailed(path: path, reason: "writer has no audio track") }
        guard samples.count % audio.channels == 0 else { throw .writeFailed(path: path, reason: "sample count not a multiple of channels") }
        let code = samples.withUnsafeBufferPointer { fs_writer_write_audio(handle, $0.baseAddress, Int32($0.count / audio.channels)) }
        try check(code, "audio")
    }

    /// Flushes the encoders, writes the index (moved to the front) and renames the file onto `path`.
    /// Without `replace`, a file that appeared at `path` while this one was written (another
    /// `feed stack` to the same name) is kept, and this throws ``MediaError/cannotCreate(path:reason:)``:
    /// the file is linked into place, which fails when the name is taken, rather than renamed over it.
    public func finish() throws(MediaError) {
        guard !finished else { return }
        try check(fs_writer_finish(handle), "finishing")
        if replace {
            if rename(temporaryPath, path) != 0 {
                let reason = String(cString: strerror(errno))
                throw .cannotCreate(path: path, reason: "cannot rename \(temporaryPath): \(reason)")
            }
        } else {
            try placeWithoutReplacing()
        }
        finished = true
    }

    /// Moves the temporary file to `path` unless something is there: `link` fails with EEXIST
    /// when the name is taken, atomically; the temporary name then goes. On a file system
    /// without hard links, a check and a rename (a race remains there, and only there).
    private func placeWithoutReplacing() throws(MediaError) {
        var tries = 0
        while true {
            if link(temporaryPath, path) == 0 {
                unlink(temporaryPath)
                return
            }
            // A name feed chose, taken meanwhile (another stack in the same second): the next one.
            guard errno == EEXIST, let nextName, tries < 1000 else { break }
            path = nextName(path)
            tries += 1
        }
        let failure = errno
        let taken = "the file exists: it was made while this one was written (nothing was replaced)"
        switch failure {
        case EEXIST:
            throw .cannotCreate(path: path, reason: taken)
        case EPERM, EOPNOTSUPP, ENOTSUP, ENOSYS, EMLINK, EXDEV:
            if access(path, F_OK) == 0 { throw .cannotCreate(path: path, reason: taken) }
            if rename(temporaryPath, path) != 0 {
                throw .cannotCreate(path: path, reason: "cannot rename \(temporaryPath): \(String(cString: strerror(errno)))")
            }
        default:
            throw .cannotCreate(path: path, reason: "cannot link \(temporaryPath): \(String(cString: strerror(failure)))")
        }
    }

    private func check(_ code: Int32, _ what: String) throws(MediaError) {
        if code < 0 { throw .writeFailed(path: path, reason: "\(what): \(MediaError.text(code))") }
    }

    /// A frame rate as a fraction: whole rates exactly, NTSC rates as n/1001, others to 1/1000.
    static func rational(_ fps: Double) -> (Int32, Int32) {
        guard fps.isFinite, fps > 0 else { return (0, 1) }
        if abs(fps - fps.rounded()) < 1e-6 { return (Int32(fps.rounded()), 1) }
        let ntsc = fps * 1001 / 1000
        if abs(ntsc - ntsc.rounded()) < 1e-3 { return (Int32(ntsc.rounded()) * 1000, 1001) }
        return (Int32((fps * 1000).rounded()), 1000)
    }
}
