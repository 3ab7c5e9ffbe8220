import CFFmpeg

/// A decoded picture still in the decoder's own format, before conversion. Owns one reference to
/// the decoder's frame, released in `deinit`. Immutable, so it may cross threads.
public final class Picture: @unchecked Sendable {
    let handle: OpaquePointer
    /// Presentation time in seconds from the start of the file.
    public let time: Double
    /// How long the picture is shown, in seconds (0 when unknown).
    public let duration: Double
    /// Stored size (before rotation).
    public let width: Int
    public let height: Int

    init(handle: OpaquePointer) {
        self.handle = handle
        time = fs_picture_time(handle)
        duration = fs_picture_duration(handle)
        width = Int(fs_picture_width(handle))
        height = Int(fs_picture_height(handle))
    }

    deinit {
        var handle: OpaquePointer? = handle
        fs_picture_free(&handle)
    }
}
