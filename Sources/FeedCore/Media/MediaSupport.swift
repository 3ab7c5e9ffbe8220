import CFFmpeg

/// Whether this machine can do media work: FFmpeg's libraries load (they are opened at run
/// time, so a machine without them runs everything else).
public enum MediaSupport {
    /// Nil when FFmpeg loads; else why not, in words (the library and the loader's reason).
    public static func problem() -> String? {
        guard fs_version() == nil else { return nil }
        return MediaError.text(FS_ERR_UNAVAILABLE)
    }
}
