import Foundation

/// How `Stacker` merges a front and a back camera clip. Defaults match `feed stack`'s.
public struct StackOptions: Sendable, Equatable {
    /// Where the two pictures go.
    public enum Layout: String, Sendable, Codable, CaseIterable {
        /// One above the other.
        case vstack
        /// Side by side.
        case hstack
        /// The front as an inset a quarter of the width in the top-right corner of the back.
        case pip
    }
    /// Which clip takes the first slot (top in vstack, left in hstack).
    public enum Side: String, Sendable, Codable, CaseIterable { case front, back }
    /// How pictures fill a fixed `size`.
    public enum Fit: String, Sendable, Codable, CaseIterable {
        /// Whole picture, black bars.
        case pad
        /// Fill the slot, cut the overflow.
        case crop
    }
    /// When the output ends.
    public enum Until: String, Sendable, Codable, CaseIterable {
        /// With the shorter clip.
        case shortest
        /// With the longer clip; the shorter holds its last frame.
        case longest
    }
    /// Whose sound the output carries.
    public enum Audio: String, Sendable, Codable, CaseIterable { case back, front, none }
    /// Where the offset comes from instead of `offset`.
    public enum Sync: String, Sendable, Codable, CaseIterable {
        /// The clips' sound, lined up by ``AudioSync`` before stacking.
        case audio
    }
    /// A fixed output canvas.
    public struct Size: Sendable, Equatable, Codable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
        /// Parses "WxH", e.g. "720x1280"; nil if malformed.
        public init?(parsing text: String) {
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
            self.init(width: w, height: h)
        }
    }

    /// The options a caller sets, by the names a JSON request or a saved recording uses.
    public enum Field: String, Sendable, CaseIterable {
        case output, layout, top, width, size, fit, fps, offset, sync, until, audio, codec, preset, crf
    }

    /// The output file; written to a temporary file next to it and renamed at the end.
    public var output: String
    public var layout: Layout = .vstack
    public var top: Side = .back
    /// Common width of the stacked pictures (vstack, pip) or total width (hstack); nil = the narrower input's.
    public var width: Int?
    /// Fixed canvas, overriding `width`.
    public var size: Size?
    public var fit: Fit = .pad
    /// Output frame rate; nil = the higher input rate, at most 60.
    public var fps: Double?
    /// Seconds the front starts after the back (negative: before).
    public var offset: Double = 0
    /// With `.audio`, the stacker finds the offset with ``AudioSync`` (searching as `syncSearch`
    /// says) and `offset` is ignored; a pair with no clear match fails with ``StackError/sync(_:)``.
    public var sync: Sync?
    /// How `sync` searches.
    public var syncSearch = SyncOptions()
    public var until: Until = .shortest
    /// nil = the back's audio if it has any, else the front's, else none.
    public var audio: Audio?
    public var codec: VideoCodec = .h264
    public var preset: String = "veryfast"
    public var crf: Int = 23
    /// Replace an existing output file.
    public var force = false
    /// Whether `output` is a name feed chose (``defaultOutputName(date:exists:)``): when another
    /// stack takes it while this one is written, this one takes the next free name
    /// (``nextDefaultName(after:)``) instead of failing.
    public var outputIsDefault = false
    /// Decoder threads per input; 0 = FFmpeg's automatic choice. Default 1: each input already
    /// decodes on its own thread, and frame-threaded decoders would hold more frames and compete
    /// with the encoder for the cores.
    public var threads = 1

    public init(output: String) { self.output = output }

    /// The x264/x265 presets `preset` may be.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// `stacked-YYYYMMDD-HHMMSS.mp4` for `date`, in local time; when `exists` says that name is
    /// taken (an earlier stack in the same second), `stacked-YYYYMMDD-HHMMSS-2.mp4` and so on.
    public static func defaultOutputName(date: Date = Date(),
                                         exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stem = "stacked-\(formatter.string(from: date))"
        var name = stem + ".mp4", n = 1
        while exists(name) {
            n += 1
            name = "\(stem)-\(n).mp4"
        }
        return name
    }

    /// The name after `path` in ``defaultOutputName(date:exists:)``'s order: `stacked-…-HHMMSS.mp4`,
    /// then `…-2.mp4`, `…-3.mp4`; any other name gets `-2` before its extension.
    public static func nextDefaultName(after path: String) -> String {
        let stem = path.hasSuffix(".mp4") ? String(path.dropLast(4)) : path
        if let match = stem.wholeMatch(of: #/(.*stacked-\d{8}-\d{6})-(\d+)/#), let n = Int(match.output.2) {
            return "\(match.output.1)-\(n + 1).mp4"
        }
        return stem + "-2.mp4"
    }

    /// The one check of a set of options, for `feed stack` and for a job's request alike:
    /// throws `.invalidOption` for values out of range and for `sync` with a non-zero `offset`.
    public func validate() throws(StackError) {
        if let width, width < 2 || width > 16384 { throw .invalidOption(.width, problem: "must be 2…16384, not \(width)") }
        if let size, size.width < 4 || size.height < 4 || size.width > 16384 || size.height > 16384 {
            throw .invalidOption(.size, problem: "must be at least 4x4 and at most 16384x16384, not \(size.width)x\(size.height)")
        }
        if let fps, !(fps >= 1 && fps <= 240) { throw .invalidOption(.fps, problem: "must be 1…240, not \(fps)") }
        if !offset.isFinite || abs(offset) > 86400 { throw .invalidOption(.offset, problem: "must be a number of seconds") }
        if !(0...51).contains(crf) { throw .invalidOption(.crf, problem: "must be 0…51, not \(crf)") }
        if !Self.presets.contains(preset) { throw .invalidOption(.preset, problem: "must be one of \(Self.presets.joined(separator: ", ")), not \(preset)") }
        if output.isEmpty { throw .invalidOption(.output, problem: "needs a file name") }
        if sync != nil && offset != 0 { throw .invalidOption(.sync, problem: "cannot be used with offset: it finds the offset") }
        if sync != nil {
            do throws(SyncError) { try syncSearch.validate() } catch { throw .sync(error) }
        }
    }
}
