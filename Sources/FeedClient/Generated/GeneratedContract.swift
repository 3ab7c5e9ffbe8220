// Written by scripts/openapi-client.sh with the code beside it: do not edit.

/// The contract the code in this folder was generated from.
public enum GeneratedContract {
    /// SHA-256 of the openapi.yaml that swift-openapi-generator 1.14.3 read.
    public static let sha256 = "0cfae22d89cee0d39ce4682520e2dec2adc504cdf251bc180f2cd2298ba620b1"
}
