import CFFmpeg

/// What a media file holds, as `feed probe` reports it.
public struct MediaInfo: Codable, Equatable, Sendable {
    /// Container name: mp4, mov, matroska, webm, avi, mpegts …
    public var container: String
    /// Length in seconds (0 when unknown).
    public var duration: Double
    /// FFmpeg's name of the video codec: h264, hevc, vp9 …
    public var videoCodec: String
    /// Picture size as stored.
    public var codedWidth: Int
    public var codedHeight: Int
    /// Picture size once turned upright.
    public var displayWidth: Int
    public var displayHeight: Int
    /// Clockwise turn in degrees (0, 90, 180, 270) that shows the stored picture upright.
    public var rotation: Int
    /// Average frame rate; 0 when the file does not say (a raw elementary stream).
    public var fps: Double
    /// The rate most frames follow (the mean frame interval near the median one, over the first
    /// frames): what the camera meant, where the average of a variable-rate clip with dropped
    /// frames says 27.02 for a 30 fps recording. Equals `fps` when too few frames tell.
    public var nominalFPS: Double
    /// Whether frame durations vary.
    public var variableFrameRate: Bool
    /// FFmpeg's name of the audio codec, nil without audio.
    public var audioCodec: String?
    public var audioSampleRate: Int?
    public var audioChannels: Int?
    /// File size in bytes (-1 when unknown).
    public var bytes: Int64

    private enum CodingKeys: String, CodingKey {
        case container, duration, videoCodec, codedWidth, codedHeight, displayWidth, displayHeight, rotation, fps,
             nominalFPS, variableFrameRate, audioCodec, audioSampleRate, audioChannels, bytes
    }

    /// Encodes every field; absent audio fields as `null`, so scripts always find the keys.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(container, forKey: .container)
        try c.encode(duration, forKey: .duration)
        try c.encode(videoCodec, forKey: .videoCodec)
        try c.encode(codedWidth, forKey: .codedWidth)
        try c.encode(codedHeight, forKey: .codedHeight)
        try c.encode(displayWidth, forKey: .displayWidth)
        try c.encode(displayHeight, forKey: .displayHeight)
        try c.encode(rotation, forKey: .rotation)
        try c.encode(fps, forKey: .fps)
        try c.encode(nominalFPS, forKey: .nominalFPS)
        try c.encode(variableFrameRate, forKey: .variableFrameRate)
        try c.encode(audioCodec, forKey: .audioCodec)
        try c.encode(audioSampleRate, forKey: .audioSampleRate)
        try c.encode(audioChannels, forKey: .audioChannels)
        try c.encode(bytes, forKey: .bytes)
    }

    /// Builds the Swift value from the shim's struct.
    init(_ raw: fs_media_info) {
        func string<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        container = string(raw.container)
        duration = raw.duration
        videoCodec = string(raw.video_codec)
        codedWidth = Int(raw.coded_width)
        codedHeight = Int(raw.coded_height)
        rotation = Int(raw.rotation)
        let turned = rotation == 90 || rotation == 270
        displayWidth = turned ? codedHeight : codedWidth
        displayHeight = turned ? codedWidth : codedHeight
        fps = raw.fps
        nominalFPS = raw.nominal_fps > 0 ? raw.nominal_fps : raw.fps
        variableFrameRate = raw.variable_frame_rate != 0
        let audio = string(raw.audio_codec)
        audioCodec = audio.isEmpty ? nil : audio
        audioSampleRate = audio.isEmpty ? nil : Int(raw.audio_sample_rate)
        audioChannels = audio.isEmpty ? nil : Int(raw.audio_channels)
        bytes = raw.bytes
    }
}
