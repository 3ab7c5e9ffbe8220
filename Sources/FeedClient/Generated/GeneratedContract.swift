// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "523b5f8c996c4043f38855c7f66c30dd537582069f69a7826002c95457ab6efe"
}
