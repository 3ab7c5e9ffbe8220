/// A clip a job reads: a recording of the roll (`{"recording": ID}`) or the recording a
/// finished upload became (`{"upload": "ID"}`).
public enum JobSource: Sendable, Equatable, Codable {
    /// Recording `id` of the roll.
    case recording(Int64)
    /// Upload `id`, once it is done.
    case upload(String)

    private enum CodingKeys: String, CodingKey { case recording, upload }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let recording = try container.decodeIfPresent(Int64.self, forKey: .recording)
        let upload = try container.decodeIfPresent(String.self, forKey: .upload)
        switch (recording, upload) {
        case let (id?, nil): self = .recording(id)
        case let (nil, id?): self = .upload(id)
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: #"needs {"recording": ID} or {"upload": "ID"}"#))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .recording(id): try container.encode(id, forKey: .recording)
        case let .upload(id): try container.encode(id, forKey: .upload)
        }
    }
}
