import Foundation

/// Reads a master playlist's variants back (`feed roll hls --json`, tests, the server).
public enum HLSMaster {
    /// The master playlist's name in a ladder's folder.
    public static let fileName = "master.m3u8"

    /// One `EXT-X-STREAM-INF` and its URI.
    public struct Variant: Sendable, Equatable, Codable {
        public var uri: String
        public var bandwidth: Int
        public var averageBandwidth: Int?
        public var codecs: String?
        public var resolution: String?
        public var frameRate: Double?

        enum CodingKeys: String, CodingKey {
            case uri, bandwidth, codecs, resolution
            case averageBandwidth = "average_bandwidth", frameRate = "frame_rate"
        }
    }

    /// The variants of the master playlist at `path`.
    public static func variants(at path: String) throws(HLSError) -> [Variant] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .badPlaylist(path: path, reason: error.localizedDescription)
        }
        return try variants(parsing: text, path: path)
    }

    /// The variants of master playlist `text` (`path` names it in errors).
    public static func variants(parsing text: String, path: String) throws(HLSError) -> [Variant] {
        var variants: [Variant] = []
        var pending: [String: String]?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = attributes(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
            } else if let attributes = pending, !line.isEmpty, !line.hasPrefix("#") {
                guard let bandwidth = attributes["BANDWIDTH"].flatMap({ Int($0) }) else {
                    throw .badPlaylist(path: path, reason: "\(line) has no BANDWIDTH")
                }
                variants.append(Variant(uri: line, bandwidth: bandwidth, averageBandwidth: attributes["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
                                        codecs: attributes["CODECS"], resolution: attributes["RESOLUTION"],
                                        frameRate: attributes["FRAME-RATE"].flatMap { Double($0) }))
                pending = nil
            }
        }
        guard !variants.isEmpty else { throw .badPlaylist(path: path, reason: "no EXT-X-STREAM-INF") }
        return variants
    }

    /// `KEY=value,KEY="quoted, with commas"` as a dictionary (quotes removed).
    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var key = "", value = "", inKey = true, quoted = false
        func flush() {
            if !key.isEmpty { result[key] = value }
            key = ""; value = ""; inKey = true
        }
        for character in text {
            if inKey {
                if character == "=" { inKey = false } else if character != "," { key.append(character) }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                flush()
            } else {
                value.append(character)
            }
        }
        flush()
        return result
    }
}
