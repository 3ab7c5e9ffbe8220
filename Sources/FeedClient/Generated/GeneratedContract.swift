// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "90a3f8d73b60d9aa4b646d70894e2f7bd84b9a2251fc2bca139cc3c4a98c00c9"
}
