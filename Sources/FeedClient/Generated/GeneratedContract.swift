// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "54fece511d52e4f9fc8f03c556bbb3b278b8cfe22e773f560847ece30c4dda9e"
}
