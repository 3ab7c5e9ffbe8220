// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "1b54abafe2b0de6382ee2061eae0eea67b3d049680baa3bbc98bb1dc916b6d63"
}
