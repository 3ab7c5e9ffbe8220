import Foundation

/// An `Upload-Metadata` header (tus 1.0.0): comma-separated pairs `key base64value`, where the
/// value may be left out. The store reads `filename` (its extension names the stored file's)
/// and `title` (the recording's); other keys are kept in ``header`` only.
public struct UploadMetadata: Sendable, Equatable {
    /// The header as received, spaces around pairs removed; HEAD sends it back.
    public let header: String
    /// `filename`, decoded.
    public let filename: String?
    /// `title`, decoded.
    public let title: String?
    /// Every key's value, decoded as UTF-8 ("" for a key given without one, or one that is not UTF-8).
    public let values: [String: String]

    /// Whether the upload is to be published when it completes: `publish` given, with no value
    /// or any but `0`, `false` and `no`.
    public var publish: Bool {
        guard let value = values["publish"] else { return false }
        return !["0", "false", "no"].contains(value.lowercased())
    }

    /// The longest header accepted, in bytes.
    public static let maxHeaderBytes = 4096

    /// No metadata.
    public init() {
        header = ""
        filename = nil
        title = nil
        values = [:]
    }

    /// Parses a header.
    /// - Throws: ``UploadError/invalidRequest(_:)`` for a key that is empty or holds
    ///   spaces, a value that is not base64, or a `filename`/`title` that is not one line of UTF-8.
    public init(header text: String) throws(UploadError) {
        guard text.utf8.count <= Self.maxHeaderBytes else {
            throw .invalidRequest("Upload-Metadata is over \(Self.maxHeaderBytes) bytes")
        }
        var pairs: [String] = []
        var values: [String: String?] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = item.trimmingCharacters(in: .whitespaces)
            if pair.isEmpty && text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let parts = pair.split(separator: " ", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let key = parts.first, !key.isEmpty,
                  key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw .invalidRequest("Upload-Metadata: \(String(reflecting: pair)) is not `key base64value`")
            }
            // tus asks for unique keys; a key given twice keeps its last value, as tusd does.
            var value: String?
            if parts.count == 2 {
                guard let bytes = Data(base64Encoded: String(parts[1])) else {
                    throw .invalidRequest("Upload-Metadata: the value of \(key) is not base64")
                }
                value = String(data: bytes, encoding: .utf8)
                if ["filename", "title"].contains(key) {
                    guard let text = value, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
                          text.utf8.count <= 1024 else {
                        throw .invalidRequest("Upload-Metadata: \(key) must be one line of UTF-8 text, 1024 bytes at most")
                    }
                }
            }
            values[String(key)] = .some(value)
            pairs.append(pair)
        }
        header = pairs.joined(separator: ",")
        self.values = values.mapValues { $0 ?? "" }
        filename = values["filename"] ?? nil
        title = (values["title"] ?? nil).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The extension the stored file gets when its first bytes show no container
    /// ``ContainerSniffer`` knows: `filename`'s, when it is 1 to 8 letters or digits, else `mp4`
    /// (the prober reads the bytes, not the name).
    public var fileExtension: String {
        let ext = ((filename ?? "") as NSString).pathExtension.lowercased()
        let plain = (1...8).contains(ext.count) && ext.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
        return plain ? ext : "mp4"
    }
}
