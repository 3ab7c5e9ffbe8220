/// The production ``RecordingProber``: FFmpeg through ``MediaProbe``. Refuses files with
/// no video stream and stills (no duration).
public struct MediaRecordingProber: RecordingProber {
    /// A prober.
    public init() {}

    public func probe(path: String) throws(RollError) -> RecordingMedia {
        let info: MediaInfo
        do { info = try MediaProbe.probe(path: path) } catch { throw RollError(error, path: path) }
        guard info.duration > 0, info.displayWidth > 0, info.displayHeight > 0 else {
            throw RollError.notMedia(path: path, reason: "no duration: a still image?")
        }
        return RecordingMedia(duration: info.duration, width: info.displayWidth, height: info.displayHeight,
                              fps: info.fps, videoCodec: info.videoCodec, hasAudio: info.audioCodec != nil)
    }

    /// FFmpeg's reason without the path (the RollError names the file itself).
    static func reason(_ error: MediaError) -> String {
        switch error {
        case let .notMedia(_, reason), let .decodeFailed(_, reason), let .refused(_, reason),
             let .cannotCreate(_, reason), let .writeFailed(_, reason), let .unavailable(_, reason), let .unreadable(_, reason): reason
        case .noVideoStream: "no video stream"
        case .missingFile: "no such file"
        case .interrupted: "interrupted"
        case .networkNotAllowed: "a network URL, and reading from the network was not allowed"
        }
    }
}
