/// What a stack job merges: `{"front": SOURCE, "back": SOURCE, "options": {…}, "title": …}`,
/// the body of `POST /jobs/stack` and the request of `feed jobs add stack`. `options` are
/// ``StackOptions`` by their JSON names (layout, top, width, size, fit, fps, offset, sync, until,
/// audio, codec, preset, crf); the output file is the worker's to choose.
public struct StackJobRequest: Sendable, Equatable, Codable {
    /// The front camera clip.
    public var front: JobSource
    /// The back camera clip.
    public var back: JobSource
    /// How to stack them; its `output` is replaced by the worker's.
    public var options: StackOptions
    /// The title of the recording it makes (default: the roll's template).
    public var title: String?

    /// A request for `front` and `back` with `options`.
    public init(front: JobSource, back: JobSource, options: StackOptions = StackOptions(output: StackJobRequest.outputPlaceholder), title: String? = nil) {
        self.front = front
        self.back = back
        self.options = options
        self.title = title
    }

    /// The output name options carry until a worker names the real file.
    public static let outputPlaceholder = "job.mp4"

    private enum CodingKeys: String, CodingKey { case front, back, options, title }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        front = try container.decode(JobSource.self, forKey: .front)
        back = try container.decode(JobSource.self, forKey: .back)
        options = try container.decodeIfPresent(StackOptions.self, forKey: .options) ?? StackOptions(output: Self.outputPlaceholder)
        title = try container.decodeIfPresent(String.self, forKey: .title)
    }
}
