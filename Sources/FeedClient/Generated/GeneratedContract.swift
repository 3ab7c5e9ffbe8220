// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "a6bf458530fcbe396bf7662c945ba8f3a5c0b9eeed97eb6f7fc526457595813d"
}
