// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "6aead6d2ea4bb102e5a1cf61571220a5e802f317e52deb3df44dd3bc29342cfd"
}
