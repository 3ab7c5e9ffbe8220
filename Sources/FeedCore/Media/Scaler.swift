import CFFmpeg

/// Converts pictures (turned upright, cropped, scaled) into caller memory with swscale.
/// Keeps its conversion context between calls; use one scaler per thread.
public final class Scaler {
    private let handle: OpaquePointer

    /// A rectangle in upright picture coordinates.
    public struct Rect: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    public init() {
        var handle: OpaquePointer?
        precondition(fs_scaler_alloc(&handle) == 0 && handle != nil, "out of memory")
        self.handle = handle!
    }

    deinit {
        var handle: OpaquePointer? = handle
        fs_scaler_free(&handle)
    }

    /// Writes `picture`, turned clockwise by `rotation` degrees and cropped to `crop` (upright
    /// coordinates, nil = all), scaled to `width` x `height` into the given planes. Returns the shim code.
    func convert(_ picture: Picture, crop: Rect?, rotation: Int, width: Int, height: Int, format: Frame.Format,
                 planes: UnsafePointer<UnsafeMutablePointer<UInt8>?>, strides: UnsafePointer<Int32>) -> Int32 {
        if let crop {
            var rect = fs_rect(x: Int32(crop.x), y: Int32(crop.y), width: Int32(crop.width), height: Int32(crop.height))
            return fs_scaler_convert(handle, picture.handle, &rect, Int32(rotation), Int32(width), Int32(height), format.raw, planes, strides)
        }
        return fs_scaler_convert(handle, picture.handle, nil, Int32(rotation), Int32(width), Int32(height), format.raw, planes, strides)
    }

    /// Converts `picture` into a new frame of the given size and format, upright.
    public func frame(from picture: Picture, rotation: Int, width: Int, height: Int, format: Frame.Format,
                      crop: Rect? = nil, path: String = "") throws(MediaError) -> Frame {
        var frame = Frame(width: width, height: height, format: format, time: picture.time)
        let code = frame.withPlanes { planes, strides in
            convert(picture, crop: crop, rotation: rotation, width: width, height: height, format: format, planes: planes, strides: strides)
        }
        if code < 0 { throw .decodeFailed(path: path, reason: "cannot convert to \(width)x\(height) \(format.rawValue): \(MediaError.text(code))") }
        return frame
    }
}
