import FeedCore

/// What can go wrong talking to an object store. Each message is one line naming the object
/// (`s3://bucket/key`) or the store, and never a secret key.
public enum S3Error: FeedFailure, Equatable {
    /// The configuration is missing or wrong (a variable named in the message).
    case configuration(String)
    /// The store refused the keys (`InvalidAccessKeyId`, `SignatureDoesNotMatch`) or what they
    /// may do (`AccessDenied`).
    case denied(target: String, code: String, accessKey: String)
    /// The bucket does not exist at the endpoint.
    case noSuchBucket(bucket: String, endpoint: String)
    /// No object at the key.
    case noSuchKey(target: String)
    /// Another error answer: the operation, the HTTP status and the store's own code and words.
    case status(target: String, operation: String, code: Int, s3Code: String, message: String)
    /// The store kept answering 500/503 (`SlowDown`) or cutting the connection, past every retry.
    case busy(target: String, operation: String, attempts: Int, last: String)
    /// The store sent nothing for the timeout.
    case timedOut(target: String, operation: String, seconds: Int)
    /// The store could not be reached (refused, DNS, TLS).
    case unreachable(endpoint: String, reason: String)
    /// An answer feed cannot read (not the XML S3 sends, a missing header).
    case invalidResponse(target: String, operation: String, reason: String)

    public var kind: FailureKind {
        switch self {
        case .configuration: .usage
        case let .denied(_, code, _): code == "AccessDenied" ? .forbidden : .unauthorized
        case .noSuchBucket, .busy, .unreachable: .unavailable
        case .noSuchKey: .notFound
        case .status, .timedOut, .invalidResponse: .io
        }
    }

    public var description: String {
        switch self {
        case let .configuration(text): text
        case let .denied(target, code, key):
            switch code {
            case "InvalidAccessKeyId": "\(target): the store does not know access key \(key) (InvalidAccessKeyId): check AWS_ACCESS_KEY_ID"
            case "SignatureDoesNotMatch": "\(target): the store refused the signature of access key \(key) (SignatureDoesNotMatch): check AWS_SECRET_ACCESS_KEY and AWS_REGION"
            default: "\(target): access key \(key) may not do this (\(code))"
            }
        case let .noSuchBucket(bucket, endpoint): "s3://\(bucket): no such bucket at \(endpoint) (create it, or check the name and AWS_ENDPOINT_URL)"
        case let .noSuchKey(target): "\(target): no such object in the store"
        case let .status(target, operation, code, s3Code, message):
            "\(target): \(operation): HTTP \(code)\(s3Code.isEmpty ? "" : " \(s3Code)")\(message.isEmpty ? "" : ": \(message)")"
        case let .busy(target, operation, attempts, last): "\(target): \(operation): the store is busy (\(last)) after \(attempts) attempts"
        case let .timedOut(target, operation, seconds): "\(target): \(operation): no answer from the store for \(seconds) s"
        case let .unreachable(endpoint, reason): "\(endpoint): cannot reach the object store: \(reason)"
        case let .invalidResponse(target, operation, reason): "\(target): \(operation): the store's answer is not S3's: \(reason)"
        }
    }
}
