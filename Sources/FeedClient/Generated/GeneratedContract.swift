// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "245e0be6b322caea25efb9d99568a4e6d6624eaaf7a77fa526d5d9e988d7c365"
}
