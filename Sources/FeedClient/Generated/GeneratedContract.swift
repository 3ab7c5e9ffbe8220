// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "e6e7a7d641ad93d32486d2e8aafcc9e2a6024896afb011336866d80a2565dc41"
}
