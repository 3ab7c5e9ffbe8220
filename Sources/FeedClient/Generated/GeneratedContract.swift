// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "02c0f8ae4b6334b208a388db9586a348c516ffe45892e2e54deba3a9d5167dd2"
}
