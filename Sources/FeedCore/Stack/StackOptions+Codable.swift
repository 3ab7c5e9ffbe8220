/// StackOptions as a job request or an API body names them: `{"layout":"pip","width":720,
/// "size":"1080x1920","offset":0.4,…}`, every field optional (absent: `feed stack`'s default).
/// The output file, `force` and the thread count are the caller's, not the request's.
///
/// A value of the right type but not one of an option's words fails with
/// ``StackError/invalidOption(_:problem:)`` naming the accepted ones
/// (`layout must be vstack, hstack or pip, not diagonal`).
extension StackOptions: Codable {
    private enum CodingKeys: String, CodingKey {
        case layout, top, width, size, fit, fps, offset, sync, until, audio, codec, preset, crf
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(output: StackJobRequest.outputPlaceholder)
        func word<Value: RawRepresentable & CaseIterable>(_ key: CodingKeys, _ field: Field) throws -> Value? where Value.RawValue == String {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let value = Value(rawValue: text) else {
                throw StackError.invalidOption(field, problem: "must be \(Self.either(Value.allCases.map(\.rawValue))), not \(text)")
            }
            return value
        }
        if let value: Layout = try word(.layout, .layout) { layout = value }
        if let value: Side = try word(.top, .top) { top = value }
        width = try container.decodeIfPresent(Int.self, forKey: .width)
        if let text = try container.decodeIfPresent(String.self, forKey: .size) {
            guard let parsed = Size(parsing: text) else { throw StackError.invalidOption(.size, problem: "must look like 1080x1920, not \(text)") }
            size = parsed
        }
        if let value: Fit = try word(.fit, .fit) { fit = value }
        fps = try container.decodeIfPresent(Double.self, forKey: .fps)
        offset = try container.decodeIfPresent(Double.self, forKey: .offset) ?? 0
        sync = try word(.sync, .sync)
        if let value: Until = try word(.until, .until) { until = value }
        audio = try word(.audio, .audio)
        if let value: VideoCodec = try word(.codec, .codec) { codec = value }
        preset = try container.decodeIfPresent(String.self, forKey: .preset) ?? preset
        crf = try container.decodeIfPresent(Int.self, forKey: .crf) ?? crf
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(layout.rawValue, forKey: .layout)
        try container.encode(top.rawValue, forKey: .top)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(size.map { "\($0.width)x\($0.height)" }, forKey: .size)
        try container.encode(fit.rawValue, forKey: .fit)
        try container.encodeIfPresent(fps, forKey: .fps)
        try container.encode(offset, forKey: .offset)
        try container.encodeIfPresent(sync?.rawValue, forKey: .sync)
        try container.encode(until.rawValue, forKey: .until)
        try container.encodeIfPresent(audio?.rawValue, forKey: .audio)
        try container.encode(codec.rawValue, forKey: .codec)
        try container.encode(preset, forKey: .preset)
        try container.encode(crf, forKey: .crf)
    }

    /// "a, b or c".
    static func either(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
