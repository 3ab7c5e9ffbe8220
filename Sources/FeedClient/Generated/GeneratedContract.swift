// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "7786c8305a7cecaccc4d119bf447ccc681dd4f7bf708438524f387fe9e00dfea"
}
