// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "97b2b0eb6d798f76e19693ad610de5b7456aaf4794ffadd52dc1c31f99ab68d2"
}
