/// The keys a request to an object store is signed with (`AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and, for temporary credentials, `AWS_SESSION_TOKEN`). Its
/// description shows the access key's id only: the secret never reaches a message or a log.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible {
    /// The access key's id (`AKIA…`): not a secret, and named in errors so a wrong one is found.
    public var accessKey: String
    /// The secret access key.
    public var secretKey: String
    /// The session token of temporary credentials, sent as `X-Amz-Security-Token`.
    public var sessionToken: String?

    /// Keys as given.
    public init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }

    public var description: String { "access key \(accessKey)" }
}
