import CFFmpeg

/// Decodes one media file: its best video stream (upright frames) and, when asked, its audio.
///
/// Opens local files only unless `allowNetwork` (then http/https URLs too), and only real media
/// containers — never playlists, concat scripts or image sequences. Not thread-safe: use one
/// reader from one thread at a time. The shim handle is freed in `deinit`.
public final class MediaReader {
    private let handle: OpaquePointer
    private lazy var scaler = Scaler()
    /// The path or URL as given.
    public let path: String
    /// What the file holds.
    public let info: MediaInfo

    /// Opens `path`. `video`/`audio` choose which decoders to open (a reader only probing needs none).
    /// Throws `.missingFile`, `.notMedia`, `.noVideoStream` or `.refused`.
    public init(path: String, allowNetwork: Bool = false, video: Bool = true, audio: Bool = false, threads: Int = 0) throws(MediaError) {
        var options = fs_reader_options()
        options.allow_network = allowNetwork ? 1 : 0
        options.decode_video = video ? 1 : 0
        options.decode_audio = audio ? 1 : 0
        options.threads = Int32(threads)
        (handle, info) = try Self.open(path, options)
        self.path = path
    }

    /// A shim reader of `path` opened with `options` (the caller frees it) and what it found.
    static func open(_ path: String, _ options: fs_reader_options) throws(MediaError) -> (OpaquePointer, MediaInfo) {
        var options = options
        var handle: OpaquePointer?
        var detail = [CChar](repeating: 0, count: 512)
        let code = fs_reader_open(path, &options, &handle, &detail, detail.count)
        guard code == 0, let handle else { throw MediaError.opening(path, code: code, detail: detail.cText) }
        var raw = fs_media_info()
        _ = fs_reader_info(handle, &raw)
        return (handle, MediaInfo(raw))
    }

    deinit {
        var handle: OpaquePointer? = handle
        fs_reader_free(&handle)
    }

    /// Moves so the next video frame is the one shown at `seconds`.
    public func seek(to seconds: Double) throws(MediaError) {
        let code = fs_reader_seek(handle, max(0, seconds))
        if code < 0 { throw .decodeFailed(path: path, reason: "cannot seek to \(seconds) s: \(MediaError.text(code))") }
    }

    /// The time of the last video key frame at or before `seconds` as the container's index
    /// lists it (seconds from the start of the file), reading nothing; nil when the index lists
    /// none there or the container keeps none. Where decoding on beats a ``seek(to:)``: with no
    /// key frame between the picture just read and `seconds`, a seek would decode it all again.
    public func keyFrameTime(atOrBefore seconds: Double) -> Double? {
        var time = 0.0
        return fs_reader_key_frame_before(handle, max(0, seconds), &time) == 0 ? time : nil
    }

    /// The next decoded picture in the decoder's format, or nil at the end. Cheap: no conversion.
    public func nextPicture() throws(MediaError) -> Picture? {
        var picture: OpaquePointer?
        let code = fs_reader_next_picture(handle, &picture)
        if code == FS_EOF { return nil }
        guard code == 0, let picture else { throw MediaError.decoding(path, code: code) }
        return Picture(handle: picture)
    }

    /// Next decoded video frame, upright (rotation applied), scaled to `width` x `height`
    /// (nil = display size; one given keeps the aspect ratio), or nil at the end.
    public func nextVideoFrame(width: Int? = nil, height: Int? = nil, format: Frame.Format = .rgb24) throws(MediaError) -> Frame? {
        guard let picture = try nextPicture() else { return nil }
        return try videoFrame(from: picture, width: width, height: height, format: format)
    }

    /// `picture` (one of this reader's) as ``nextVideoFrame(width:height:format:)`` gives it:
    /// upright, scaled, converted to `format`.
    public func videoFrame(from picture: Picture, width: Int? = nil, height: Int? = nil, format: Frame.Format = .rgb24) throws(MediaError) -> Frame {
        let turned = info.rotation == 90 || info.rotation == 270
        let uprightW = turned ? picture.height : picture.width, uprightH = turned ? picture.width : picture.height
        var w = width ?? uprightW, h = height ?? uprightH
        if width != nil && height == nil { h = max(1, Int((Double(w) * Double(uprightH) / Double(uprightW)).rounded())) }
        if height != nil && width == nil { w = max(1, Int((Double(h) * Double(uprightW) / Double(uprightH)).rounded())) }
        if format == .yuv420p { w += w & 1; h += h & 1 }
        return try scaler.frame(from: picture, rotation: info.rotation, width: w, height: h, format: format, path: path)
    }

    /// Up to `maxFrames` samples per channel of audio converted to `sampleRate` Hz and `channels`
    /// (1 or 2), or nil at the end. Needs a reader opened with `audio: true`; nil if the file has none.
    public func readAudio(sampleRate: Int, channels: Int, maxFrames: Int = 4096) throws(MediaError) -> AudioChunk? {
        var samples = [Float](repeating: 0, count: maxFrames * channels)
        var got: Int32 = 0
        var time = 0.0
        let code = samples.withUnsafeMutableBufferPointer {
            fs_reader_read_audio(handle, Int32(sampleRate), Int32(channels), $0.baseAddress, Int32(maxFrames), &got, &time)
        }
        if code == FS_EOF { return nil }
        if code < 0 { throw MediaError.decoding(path, code: code) }
        samples.removeLast(samples.count - Int(got) * channels)
        return AudioChunk(samples: samples, channels: channels, sampleRate: sampleRate, time: time)
    }
}
