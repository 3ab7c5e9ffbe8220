// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "a63a00186e31b90a7a33fb3de1cb7799f3f39e4df27ed10523bdc7a04acaea75"
}
