/// Where each input's upright picture lands on the output canvas. Every size and offset is even,
/// as yuv420p needs.
public struct StackGeometry: Sendable, Equatable {
    /// One input's place: the rectangle it is scaled into and the part of it shown (nil = all).
    public struct Slot: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        public var crop: Scaler.Rect?
    }

    public var width: Int
    public var height: Int
    public var front: Slot
    public var back: Slot
    /// Whether some of the canvas is covered by neither picture (so it is painted black first).
    public var needsFill: Bool

    /// The layout for inputs of upright sizes `front` and `back` under `options`.
    public static func compute(front: (width: Int, height: Int), back: (width: Int, height: Int),
                               options: StackOptions) throws(StackError) -> StackGeometry {
        guard front.width > 0, front.height > 0, back.width > 0, back.height > 0 else {
            throw .noPictureSize
        }
        // Slots are laid out as first (top/left; in pip the full picture) and second (bottom/right; the inset).
        let frontFirst = options.top == .front && options.layout != .pip
        let first = frontFirst ? front : back, second = frontFirst ? back : front
        var geometry: StackGeometry
        if let size = options.size {
            geometry = fixed(first: first, second: second, width: even(size.width), height: even(size.height), options: options)
        } else {
            geometry = free(first: first, second: second, options: options)
        }
        if frontFirst { swap(&geometry.front, &geometry.back) }
        guard geometry.width <= 16384, geometry.height <= 16384, geometry.width * geometry.height <= 100_000_000 else {
            throw .outputTooLarge(width: geometry.width, height: geometry.height)
        }
        return geometry
    }

    /// Largest even number at most `value`, and at least 2.
    static func even(_ value: Int) -> Int { max(2, value & ~1) }
    /// Nearest even number to `value`, at least 2.
    static func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }

    /// Sizes follow the inputs: a common width (vstack, pip) or height (hstack). Built as
    /// front = second slot, back = first slot; `compute` swaps them when the front goes first.
    private static func free(first back: (width: Int, height: Int), second front: (width: Int, height: Int), options: StackOptions) -> StackGeometry {
        func height(_ s: (width: Int, height: Int), at width: Int) -> Int { even(Double(width) * Double(s.height) / Double(s.width)) }
        func width(_ s: (width: Int, height: Int), at height: Int) -> Int { even(Double(height) * Double(s.width) / Double(s.height)) }
        switch options.layout {
        case .vstack:
            let w = even(options.width ?? min(front.width, back.width))
            let fh = height(front, at: w), bh = height(back, at: w)
            return StackGeometry(width: w, height: fh + bh, front: Slot(x: 0, y: bh, width: w, height: fh),
                                 back: Slot(x: 0, y: 0, width: w, height: bh), needsFill: false)
        case .hstack:
            var h = even(min(front.height, back.height))
            if let total = options.width {
                let ratio = Double(front.width) / Double(front.height) + Double(back.width) / Double(back.height)
                h = even(Double(total) / ratio)
            }
            let fw = width(front, at: h), bw = width(back, at: h)
            return StackGeometry(width: fw + bw, height: h, front: Slot(x: bw, y: 0, width: fw, height: h),
                                 back: Slot(x: 0, y: 0, width: bw, height: h), needsFill: false)
        case .pip:
            let w = even(options.width ?? back.width)
            let bh = height(back, at: w)
            return StackGeometry(width: w, height: bh, front: inset(front, canvas: (w, bh)),
                                 back: Slot(x: 0, y: 0, width: w, height: bh), needsFill: false)
        }
    }

    /// A fixed canvas: each picture fitted into its slot by padding or cropping.
    private static func fixed(first back: (width: Int, height: Int), second front: (width: Int, height: Int), width: Int, height: Int,
                              options: StackOptions) -> StackGeometry {
        let crop = options.fit == .crop
        switch options.layout {
        case .vstack:
            let first = even(height / 2)
            let b = fit(back, into: Slot(x: 0, y: 0, width: width, height: first), crop: crop)
            let f = fit(front, into: Slot(x: 0, y: first, width: width, height: height - first), crop: crop)
            return StackGeometry(width: width, height: height, front: f.slot, back: b.slot, needsFill: f.bars || b.bars)
        case .hstack:
            let first = even(width / 2)
            let b = fit(back, into: Slot(x: 0, y: 0, width: first, height: height), crop: crop)
            let f = fit(front, into: Slot(x: first, y: 0, width: width - first, height: height), crop: crop)
            return StackGeometry(width: width, height: height, front: f.slot, back: b.slot, needsFill: f.bars || b.bars)
        case .pip:
            let b = fit(back, into: Slot(x: 0, y: 0, width: width, height: height), crop: crop)
            return StackGeometry(width: width, height: height, front: inset(front, canvas: (width, height)), back: b.slot, needsFill: b.bars)
        }
    }

    /// The front's inset: a quarter of the canvas width, aspect kept, in the top-right corner.
    private static func inset(_ s: (width: Int, height: Int), canvas: (width: Int, height: Int)) -> Slot {
        let margin = canvas.width >= 64 ? even(canvas.width / 32) : 0
        var w = even(canvas.width / 4)
        var h = even(Double(w) * Double(s.height) / Double(s.width))
        if h > canvas.height - 2 * margin {
            h = even(canvas.height - 2 * margin)
            w = min(w, even(Double(h) * Double(s.width) / Double(s.height)))
        }
        return Slot(x: even(canvas.width - w - margin), y: margin, width: w, height: h)
    }

    /// Scales a picture of upright size `s` into `slot`: whole with bars (pad) or filling it (crop).
    private static func fit(_ s: (width: Int, height: Int), into slot: Slot, crop: Bool) -> (slot: Slot, bars: Bool) {
        let sw = Double(s.width), sh = Double(s.height), w = Double(slot.width), h = Double(slot.height)
        if crop {
            var rect = Scaler.Rect(x: 0, y: 0, width: s.width, height: s.height)
            if sw * h > sh * w {
                rect.width = max(1, min(s.width, Int((sh * w / h).rounded())))
                rect.x = (s.width - rect.width) / 2
            } else {
                rect.height = max(1, min(s.height, Int((sw * h / w).rounded())))
                rect.y = (s.height - rect.height) / 2
            }
            var out = slot
            out.crop = rect == Scaler.Rect(x: 0, y: 0, width: s.width, height: s.height) ? nil : rect
            return (out, false)
        }
        let scale = min(w / sw, h / sh)
        let dw = min(slot.width, even(sw * scale)), dh = min(slot.height, even(sh * scale))
        // Centred, on even coordinates.
        let out = Slot(x: slot.x + ((slot.width - dw) / 2 & ~1), y: slot.y + ((slot.height - dh) / 2 & ~1), width: dw, height: dh)
        return (out, dw < slot.width || dh < slot.height)
    }
}
