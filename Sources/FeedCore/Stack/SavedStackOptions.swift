/// The options a stacked recording is saved to the roll with (its `stack_options`, a JSON
/// object with sorted keys): what was asked, with the frame rate and audio as they came out.
/// The field names are ``StackOptions/Field``'s, so a saved recording can be stacked again.
public struct SavedStackOptions: Encodable, Sendable, Equatable {
    public var layout: StackOptions.Layout, top: StackOptions.Side, width: Int?, size: String?, fit: StackOptions.Fit?
    public var fps: Double, offset: Double, until: StackOptions.Until, audio: String
    public var codec: String, preset: String, crf: Int
    /// "audio" when the offset was found by ``AudioSync`` (`feed stack --sync audio`), else absent.
    public var sync: String?
    /// ``AudioSync``'s confidence in the offset, with `sync`.
    public var syncConfidence: Double?

    private enum CodingKeys: String, CodingKey {
        case layout, top, width, size, fit, fps, offset, until, audio, codec, preset, crf, sync
        case syncConfidence = "sync_confidence"
    }

    /// What `options` asked for and `result` produced.
    public init(_ options: StackOptions, _ result: StackResult) {
        layout = options.layout
        top = options.top
        width = options.width
        size = options.size.map { "\($0.width)x\($0.height)" }
        fit = options.size == nil ? nil : options.fit
        fps = result.fps
        offset = result.offset
        until = options.until
        audio = result.audio ?? "none"
        codec = options.codec.rawValue
        preset = options.preset
        crf = options.crf
        sync = options.sync?.rawValue
        syncConfidence = result.syncConfidence
    }
}
