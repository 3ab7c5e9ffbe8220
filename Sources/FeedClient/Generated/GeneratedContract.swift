// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "b27908f0c1e56d01a36e32ed30a22b7c6c671e1974a034b84a866e7263308ca3"
}
