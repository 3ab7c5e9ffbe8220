// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "ed2ae10d85ffa13826225c5fabe950eec8a77d81e8143c405a3a7ad4c69b07a0"
}
