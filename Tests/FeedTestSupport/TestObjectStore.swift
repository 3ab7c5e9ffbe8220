import Foundation

/// The throwaway object store `make test` starts (scripts/with-s3.sh: SeaweedFS on 127.0.0.1),
/// if any. Its one bucket is shared; every test works under a prefix of its own
/// (``newPrefix()``), so tests running in parallel never see each other's objects. `make test`
/// also sets `FEED_REQUIRE_S3=1`, which turns a missing store into a failure, not a skip.
public struct TestObjectStore: Sendable {
    /// The store's base URL (`http://127.0.0.1:PORT`).
    public var endpoint: String
    /// The bucket.
    public var bucket: String
    /// The admin identity's keys.
    public var accessKey: String
    public var secretKey: String
    /// The region signatures are scoped to.
    public var region: String
    /// A python that has boto3 (the store's venv), for tests that compare with it.
    public var python: String?

    /// The store the environment names, when one runs.
    public static var current: TestObjectStore? {
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let endpoint = value("FEED_TEST_S3_ENDPOINT"), let bucket = value("FEED_TEST_S3_BUCKET"),
              let accessKey = value("FEED_TEST_S3_ACCESS_KEY"), let secretKey = value("FEED_TEST_S3_SECRET_KEY") else { return nil }
        return TestObjectStore(endpoint: endpoint, bucket: bucket, accessKey: accessKey, secretKey: secretKey,
                               region: value("FEED_TEST_S3_REGION") ?? "us-east-1", python: value("FEED_TEST_S3_PYTHON"))
    }

    /// Whether the object store tests must run (`make test`, CI).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["FEED_REQUIRE_S3"] == "1" }

    /// A prefix no other test uses: `t-` and 16 hex digits.
    public static func newPrefix() -> String {
        "t-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    /// The variables `feed` reads to reach this store (`AWS_ENDPOINT_URL`, the keys, the region).
    public var environment: [String: String] {
        ["AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": accessKey, "AWS_SECRET_ACCESS_KEY": secretKey, "AWS_REGION": region]
    }
}
