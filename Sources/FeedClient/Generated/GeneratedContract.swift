// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "8e1f4ac0cf17319fdaab652b7eb861398ad6649606cffc4766197ae1f00978ab"
}
