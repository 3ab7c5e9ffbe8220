// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "9f5747e2e266a36d4c336aa1a2038dc5d5add5ee2848ab121f3baa7031c5d960"
}
