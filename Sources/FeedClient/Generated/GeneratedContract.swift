// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "278205d73aca170020b0195df3468ca304be275949c35b333a07a49ebd59e2c8"
}
