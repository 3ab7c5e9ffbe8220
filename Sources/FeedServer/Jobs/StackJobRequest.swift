import FeedCore
import Foundation

/// The body of `POST /jobs/stack`: `{"front":{"recording":ID}|{"upload":ID}, "back":…, "options":{…}}`.
/// `options` uses the stack options' names (``StackOptions/Field``): layout, top, width,
/// size ("WxH"), fit, fps, offset, sync ("audio": the offset from the clips' sound, not with
/// offset), until, audio, codec, preset, crf.
struct StackJobRequest: Codable, Sendable {
    /// A clip of the request: a recording of the roll, or a finished upload.
    struct Source: Codable, Sendable {
        var recording: Int64?
        var upload: String?
    }
    struct Options: Codable, Sendable {
        var layout: StackOptions.Layout?, top: StackOptions.Side?, width: Int?, size: String?, fit: StackOptions.Fit?
        var fps: Double?, offset: Double?, sync: StackOptions.Sync?, until: StackOptions.Until?, audio: StackOptions.Audio?
        var codec: String?, preset: String?, crf: Int?
    }

    var front: Source
    var back: Source
    var options: Options?
    var title: String?

    /// The stacker's options for an output at `output`, checked.
    /// - Throws: ``StackError/invalidOption(_:problem:)`` naming the field.
    func stackOptions(output: String) throws(StackError) -> StackOptions {
        var result = StackOptions(output: output)
        result.force = true
        guard let options else { return result }
        if let layout = options.layout { result.layout = layout }
        if let top = options.top { result.top = top }
        result.width = options.width
        if let size = options.size {
            guard let parsed = StackOptions.Size(parsing: size) else { throw .invalidOption(.size, problem: "must look like 1080x1920, not \(size)") }
            result.size = parsed
        }
        if let fit = options.fit { result.fit = fit }
        result.fps = options.fps
        if let offset = options.offset { result.offset = offset }
        if options.sync != nil && options.offset != nil { throw .invalidOption(.sync, problem: "cannot be used with offset") }
        result.sync = options.sync
        if let until = options.until { result.until = until }
        result.audio = options.audio
        if let codec = options.codec {
            guard let parsed = VideoCodec(rawValue: codec) else { throw .invalidOption(.codec, problem: "must be h264 or hevc, not \(codec)") }
            result.codec = parsed
        }
        if let preset = options.preset { result.preset = preset }
        if let crf = options.crf { result.crf = crf }
        try result.validate()
        return result
    }
}
