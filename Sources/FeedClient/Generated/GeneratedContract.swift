// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "619e69f62cf5be4a60c3cb4970845b8b9ed517df6a2e480bdc56c6e902a33aa4"
}
