// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "91ee7de718cc8b72d0a62ce7c62a1ba5bdba78e170b2379154cc9fb91b0b9a31"
}
