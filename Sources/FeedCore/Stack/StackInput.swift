import CFFmpeg

/// The compositor's view of one input: the picture showing now, where it goes, and when the input ends.
final class StackInput {
    let decoder: InputDecoder
    /// Seconds the input starts after the output does (the front's offset; 0 for the back).
    let shift: Double
    let slot: StackGeometry.Slot
    let scaler = Scaler()
    /// The latest picture at or before the current output instant (or the first, before the input starts).
    private(set) var current: Picture?
    /// Input time at which the last picture stops showing, once the decoder reached the end.
    private(set) var endTime: Double?

    /// Tolerance for comparing frame times against output instants.
    static let epsilon = 1e-4

    init(decoder: InputDecoder, shift: Double, slot: StackGeometry.Slot) {
        self.decoder = decoder
        self.shift = shift
        self.slot = slot
    }

    /// Moves to the latest picture at or before output time `t`.
    func advance(to t: Double) throws(MediaError) {
        let local = t - shift
        while let item = decoder.queue.peek() {
            switch item {
            case .picture(let picture):
                guard current == nil || picture.time <= local + Self.epsilon else { return }
                current = picture
                _ = decoder.queue.pop()
            case .end:
                if endTime == nil {
                    let nominal = decoder.info.fps > 0 ? 1 / decoder.info.fps : 0
                    endTime = current.map { $0.time + ($0.duration > 0 ? $0.duration : nominal) } ?? 0
                }
                return
            case .failure(let error):
                throw error
            }
        }
    }

    /// Whether the input has shown its last picture by output time `t`.
    func isOver(at t: Double) -> Bool {
        guard let endTime else { return false }
        return t - shift >= endTime - Self.epsilon
    }

    /// Scales the current picture, upright, into its slot of the output's yuv420p planes.
    func draw(planes: UnsafePointer<UnsafeMutablePointer<UInt8>?>, strides: UnsafePointer<Int32>) -> Int32 {
        guard let current else { return 0 }
        let y = slot.y, x = slot.x
        let target: [UnsafeMutablePointer<UInt8>?] = [
            planes[0]! + y * Int(strides[0]) + x,
            planes[1]! + (y / 2) * Int(strides[1]) + x / 2,
            planes[2]! + (y / 2) * Int(strides[2]) + x / 2,
        ]
        return target.withUnsafeBufferPointer { p in
            scaler.convert(current, crop: slot.crop, rotation: decoder.info.rotation, width: slot.width, height: slot.height,
                           format: .yuv420p, planes: p.baseAddress!, strides: strides)
        }
    }
}
