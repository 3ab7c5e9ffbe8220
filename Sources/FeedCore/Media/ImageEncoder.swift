import CFFmpeg

/// Encodes single frames as JPEG (FFmpeg's mjpeg) or PNG (FFmpeg's png).
public enum ImageEncoder {
    /// JPEG bytes of `frame`; `quality` is the JPEG qscale, 2 (best) … 31.
    public static func jpeg(_ frame: Frame, quality: Int = 3) throws(MediaError) -> [UInt8] {
        try encode(frame, kind: Int32(FS_IMAGE_JPEG.rawValue), quality: quality)
    }

    /// PNG bytes of `frame` (lossless rgb24).
    public static func png(_ frame: Frame) throws(MediaError) -> [UInt8] {
        try encode(frame, kind: Int32(FS_IMAGE_PNG.rawValue), quality: 0)
    }

    private static func encode(_ frame: Frame, kind: Int32, quality: Int) throws(MediaError) -> [UInt8] {
        var encoder: OpaquePointer?
        var code = fs_image_encoder_open(kind, Int32(frame.width), Int32(frame.height), Int32(quality), &encoder)
        defer { fs_image_encoder_free(&encoder) }
        guard code == 0 else { throw .writeFailed(path: "image", reason: MediaError.text(code)) }
        var frame = frame
        let format = frame.format.raw
        var output: [UInt8] = []
        code = frame.withPlanes { planes, strides in
            planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 3) { planes in
                var data: UnsafePointer<UInt8>?
                var size: Int32 = 0
                let code = fs_image_encoder_encode(encoder, format, planes, strides, &data, &size)
                if code == 0, let data { output = Array(UnsafeBufferPointer(start: data, count: Int(size))) }
                return code
            }
        }
        guard code == 0 else { throw .writeFailed(path: "image", reason: MediaError.text(code)) }
        return output
    }
}
