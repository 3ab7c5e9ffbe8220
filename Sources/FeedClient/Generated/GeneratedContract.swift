// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "7445255bc533e54d2ba7bae21932e00fb951503d519da9dd839c8b12f4b858fd"
}
