// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "4f8c807de2d24ef45b52b1b8bb90f2abf337cd1d447b16fd7ee7bdc246d3b572"
}
