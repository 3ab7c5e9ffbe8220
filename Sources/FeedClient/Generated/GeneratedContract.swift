// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "eef0f39f50fe819915784ef4da794ed0f562e29cab9444b5e5a2545ee9dbc7d1"
}
