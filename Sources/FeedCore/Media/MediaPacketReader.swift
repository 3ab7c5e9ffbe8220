import CFFmpeg

/// One file's H.264 video and AAC audio packets as its container holds them, undecoded: what
/// `feed live publish` sends over RTMP.
///
/// Opens local files only, and only real media containers (as ``MediaReader``). Refuses, naming
/// the file, video other than H.264, audio other than AAC, and H.264 or AAC whose configuration
/// the container does not hold apart from the frames (Annex B H.264 and ADTS AAC, as in MPEG-TS:
/// remux those to MP4 first). Not thread-safe; the shim handle is freed in `deinit`.
public final class MediaPacketReader {
    private let handle: OpaquePointer
    /// The path as given.
    public let path: String
    /// What the file holds.
    public let info: MediaInfo
    /// The H.264 configuration record (`avcC`, AVCDecoderConfigurationRecord), as an FLV
    /// sequence header carries it.
    public let videoConfiguration: [UInt8]
    /// The AAC AudioSpecificConfig; nil when the file has no audio.
    public let audioConfiguration: [UInt8]?

    /// Opens `path`.
    /// - Throws: ``MediaError/missingFile(path:)``, ``MediaError/notMedia(path:reason:)``,
    ///   ``MediaError/noVideoStream(path:)``, or ``MediaError/refused(path:reason:)`` for the
    ///   codecs and forms above.
    public init(path: String) throws(MediaError) {
        var options = fs_reader_options()
        options.packets = 1
        let (handle, info) = try MediaReader.open(path, options)
        let configurations: (video: [UInt8], audio: [UInt8]?)
        do {
            configurations = try Self.configurations(handle, info: info, path: path)
        } catch {
            // Refused before the object exists: its deinit will not run, so the handle goes here.
            var owned: OpaquePointer? = handle
            fs_reader_free(&owned)
            throw error
        }
        self.handle = handle
        self.path = path
        self.info = info
        videoConfiguration = configurations.video
        audioConfiguration = configurations.audio
    }

    /// The H.264 and AAC configurations of the file `handle` reads, or the refusal naming it.
    private static func configurations(_ handle: OpaquePointer, info: MediaInfo, path: String) throws(MediaError) -> (video: [UInt8], audio: [UInt8]?) {
        let reencode = "send H.264 and AAC (ffmpeg -i FILE -c:v libx264 -c:a aac OUT.mp4)"
        guard info.videoCodec == "h264" else {
            throw .refused(path: path, reason: "its video is \(info.videoCodec); a live stream takes H.264 as it is: \(reencode)")
        }
        let video = extradata(handle, audio: false)
        // An AVCDecoderConfigurationRecord starts with configurationVersion 1; Annex B with a start code.
        guard video.count >= 7, video[0] == 1 else {
            throw .refused(path: path, reason: "its H.264 configuration is not held apart from the frames (Annex B, as in MPEG-TS); remux it to MP4 first (ffmpeg -i FILE -c copy OUT.mp4)")
        }
        guard let audioCodec = info.audioCodec else { return (video, nil) }
        guard audioCodec == "aac" else {
            throw .refused(path: path, reason: "its audio is \(audioCodec); a live stream takes AAC as it is: \(reencode)")
        }
        let audio = extradata(handle, audio: true)
        guard audio.count >= 2 else {
            throw .refused(path: path, reason: "its AAC configuration is not held apart from the frames (ADTS, as in MPEG-TS); remux it to MP4 first (ffmpeg -i FILE -c copy OUT.mp4)")
        }
        return (video, audio)
    }

    deinit {
        var handle: OpaquePointer? = handle
        fs_reader_free(&handle)
    }

    /// The next packet in file order, or nil at the end.
    /// - Throws: ``MediaError/decodeFailed(path:reason:)`` when the container cannot be read on.
    public func next() throws(MediaError) -> MediaPacket? {
        var packet = fs_packet()
        let code = fs_reader_read_packet(handle, &packet)
        if code == FS_EOF { return nil }
        guard code == 0 else { throw .decodeFailed(path: path, reason: MediaError.text(code)) }
        let bytes = packet.data.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(packet.size))) } ?? []
        return MediaPacket(track: packet.audio != 0 ? .audio : .video, isKey: packet.key != 0 || packet.audio != 0,
                           decodeTime: packet.dts_ms, presentationTime: packet.pts_ms, duration: packet.duration_ms, bytes: bytes)
    }

    private static func extradata(_ handle: OpaquePointer, audio: Bool) -> [UInt8] {
        var data: UnsafePointer<UInt8>?
        var size: Int32 = 0
        guard fs_reader_extradata(handle, audio ? 1 : 0, &data, &size) == 0, let data, size > 0 else { return [] }
        return [UInt8](UnsafeBufferPointer(start: data, count: Int(size)))
    }
}
