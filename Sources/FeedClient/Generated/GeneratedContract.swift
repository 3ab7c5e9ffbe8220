// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "44a7220f1fbd446523ed5f2bc48a922b5018023f55a669b17e8a9c8eb979f0ff"
}
