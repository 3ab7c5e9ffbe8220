import Foundation

/// One job's work, typed: what `feed jobs add`, `POST /jobs/stack` and a worker agree on. A
/// job row keeps it as its kind and its request's JSON text (``init(kind:json:)`` reads it back).
///
/// `Codable` as `{"kind": "stack", "request": {…}}`.
public enum JobRequest: Sendable, Equatable {
    /// Stack two clips into a new recording.
    case stack(StackJobRequest)
    /// Package a recording's HLS ladder into the roll's cache.
    case hls(RecordingJobRequest)
    /// Make a recording's poster frame in the roll's cache.
    case thumb(RecordingJobRequest)
    /// Nothing: done as soon as it is claimed (queue checks and benchmarks).
    case noop
    /// Deliver a webhook event (``WebhookJobRequest``).
    case webhook(WebhookJobRequest)
    /// Train the For You model from the events; the catalog numbers the model it makes.
    case recsTrain

    /// Its kind, as the job row names it.
    public var kind: JobKind {
        switch self {
        case .stack: .stack
        case .hls: .hls
        case .thumb: .thumb
        case .noop: .noop
        case .webhook: .webhook
        case .recsTrain: .recsTrain
        }
    }

    /// Reads a request of `kind` from its JSON text (a job row, a command-line argument, a body).
    /// - Throws: ``JobError/malformed(kind:_:)`` naming what is wrong and where;
    ///   ``JobError/invalid(kind:_:)`` for an option out of range.
    public init(kind: JobKind, json: some Collection<UInt8>) throws(JobError) {
        let data = Data(json)
        do {
            switch kind {
            case .stack: self = .stack(try JSONDecoder().decode(StackJobRequest.self, from: data))
            case .hls: self = .hls(try JSONDecoder().decode(RecordingJobRequest.self, from: data))
            case .thumb: self = .thumb(try JSONDecoder().decode(RecordingJobRequest.self, from: data))
            case .webhook: self = .webhook(try JSONDecoder().decode(WebhookJobRequest.self, from: data))
            case .noop, .recsTrain:
                guard (try JSONSerialization.jsonObject(with: data)) is [String: Any] else {
                    throw JobError.malformed(kind: kind, "not a JSON object")
                }
                self = kind == .noop ? .noop : .recsTrain
            }
        } catch let error as JobError {
            throw error
        } catch let error as StackError {
            throw .invalid(kind: kind, Self.describe(error))
        } catch let error as DecodingError {
            throw .malformed(kind: kind, Self.describe(error))
        } catch {
            throw .malformed(kind: kind, "not JSON")
        }
    }

    /// Reads a request whose kind is given by name.
    /// - Throws: ``JobError/unknownKind(_:)`` besides what ``init(kind:json:)`` throws.
    public init(kind name: String, json: String) throws(JobError) {
        guard let kind = JobKind(rawValue: name) else { throw .unknownKind(name) }
        try self.init(kind: kind, json: Array(json.utf8))
    }

    /// The request as the job row keeps it: compact JSON with sorted keys.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data? = switch self {
        case let .stack(request): try? encoder.encode(request)
        case let .hls(request), let .thumb(request): try? encoder.encode(request)
        case let .webhook(request): try? encoder.encode(request)
        case .noop, .recsTrain: Data("{}".utf8)
        }
        return String(decoding: data ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Checks what can be checked before a worker runs it: the stack options and that every
    /// recording or upload it names exists (and an upload is finished).
    /// - Throws: ``JobError/invalid(kind:_:)``; the roll's or the uploads' own errors
    ///   (an unknown recording is ``RollError/unknownID(_:)``).
    public func validate(in queue: JobQueue) async throws {
        switch self {
        case let .stack(request):
            do throws(StackError) { try request.options.validate() } catch { throw JobError.invalid(kind: .stack, Self.describe(error)) }
            if let title = request.title,
               title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) || title.unicodeScalars.count > 1024 {
                throw JobError.invalid(kind: .stack, "title must be one line of text, 1024 characters at most")
            }
            _ = try await queue.recording(of: request.front)
            _ = try await queue.recording(of: request.back)
        case let .hls(request):
            _ = try await queue.roll.recording(id: request.recording)
        case let .thumb(request):
            let recording = try await queue.roll.recording(id: request.recording)
            // The time is checked now, as `feed roll thumb --at` checks it, not by a worker later.
            do throws(RollError) { _ = try Roll.frameTime(request.at, of: recording) } catch {
                throw JobError.invalid(kind: .thumb, error.description)
            }
        case let .webhook(request):
            if let problem = WebhookEndpoint.problem(url: request.url, secret: request.secret) { throw JobError.invalid(kind: .webhook, problem) }
        case .noop, .recsTrain:
            break
        }
    }

    /// A stack option's problem as a request names it: `options.crf must be 0…51, not 99`.
    static func describe(_ error: StackError) -> String {
        switch error {
        case let .invalidOption(field, problem): "options.\(field.rawValue) \(problem)"
        case let .sync(.invalidOption(field, problem)): "options.sync_search.\(field.rawValue) \(problem)"
        default: error.description
        }
    }

    /// A decoding failure in words, with the JSON path it happened at: `options.crf: expected an integer`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            let keys = (codingPath + (key.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the request" : keys.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath, key)): missing"
        case let .typeMismatch(type, context), let .valueNotFound(type, context):
            return "\(path(context.codingPath)): expected \(typeName(type))"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty { return "not JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not a valid request"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}

extension JobRequest: Codable {
    private enum CodingKeys: String, CodingKey { case kind, request }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        guard let kind = JobKind(rawValue: name) else { throw JobError.unknownKind(name) }
        switch kind {
        case .stack: self = .stack(try container.decode(StackJobRequest.self, forKey: .request))
        case .hls: self = .hls(try container.decode(RecordingJobRequest.self, forKey: .request))
        case .thumb: self = .thumb(try container.decode(RecordingJobRequest.self, forKey: .request))
        case .noop: self = .noop
        case .recsTrain: self = .recsTrain
        case .webhook: self = .webhook(try container.decode(WebhookJobRequest.self, forKey: .request))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.rawValue, forKey: .kind)
        switch self {
        case let .stack(request): try container.encode(request, forKey: .request)
        case let .hls(request), let .thumb(request): try container.encode(request, forKey: .request)
        case let .webhook(request): try container.encode(request, forKey: .request)
        case .noop, .recsTrain: try container.encode([String: Int](), forKey: .request)
        }
    }
}
