import Foundation

/// Reads the tags of an FLV file one at a time: a 9-byte header (`FLV`, version 1, flags, the
/// header size), then a previous-tag-size field and each tag: an 11-byte header (type, 24-bit
/// body size, 24-bit timestamp plus an 8-bit extension holding its high bits, stream id), the
/// body, and the next previous-tag-size. The bodies are what ``FLVTag`` parses, the same bytes an
/// RTMP publisher sends, so a file can be fed to ``LiveSegmenter`` (or published) tag by tag.
/// ```swift
/// var reader = try FLVFileReader(path: "in.flv")
/// while let tag = try reader.next() { if let media = try FLVTag(type: tag.type, body: tag.body, timestamp: tag.timestamp) { … } }
/// ```
/// The whole file is held in memory. The reader never trusts a size: a tag that runs past the
/// end throws once the tags before it have been read.
public struct FLVFileReader: Sendable {
    /// One tag of the file.
    public struct Tag: Sendable, Equatable {
        /// The tag type: 8 audio, 9 video, 18 script data (``FLVTag/audioType`` …).
        public var type: UInt8
        /// The timestamp in milliseconds (32 bits: the extension byte is the high 8).
        public var timestamp: Int64
        /// The tag body.
        public var body: [UInt8]
        /// Where the tag's header starts in the file.
        public var offset: Int
    }

    /// The file's name in errors.
    public let name: String
    /// Whether the header's flags announce audio tags.
    public let announcesAudio: Bool
    /// Whether the header's flags announce video tags.
    public let announcesVideo: Bool
    private let bytes: [UInt8]
    private var position: Int

    /// A reader of the FLV file at `path`.
    /// - Throws: ``LivePackagingError/cannotRead(path:reason:)`` when it cannot be read,
    ///   ``LivePackagingError/badFLVFile(name:offset:reason:)`` when its header is not FLV's.
    public init(path: String) throws(LivePackagingError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .cannotRead(path: path, reason: error.localizedDescription)
        }
        try self.init(bytes: [UInt8](data), name: path)
    }

    /// A reader of the FLV file in `bytes`, called `name` in errors.
    /// - Throws: ``LivePackagingError/badFLVFile(name:offset:reason:)`` when the header is not FLV's.
    public init(bytes: [UInt8], name: String = "FLV") throws(LivePackagingError) {
        self.name = name
        self.bytes = bytes
        guard bytes.count >= 9, bytes[0] == UInt8(ascii: "F"), bytes[1] == UInt8(ascii: "L"), bytes[2] == UInt8(ascii: "V") else {
            throw .badFLVFile(name: name, offset: 0, reason: "no FLV signature")
        }
        guard bytes[3] == 1 else { throw .badFLVFile(name: name, offset: 3, reason: "version \(bytes[3]), expected 1") }
        announcesAudio = bytes[4] & 0x04 != 0
        announcesVideo = bytes[4] & 0x01 != 0
        let headerSize = Int(bytes[5]) << 24 | Int(bytes[6]) << 16 | Int(bytes[7]) << 8 | Int(bytes[8])
        guard headerSize >= 9, headerSize <= bytes.count else {
            throw .badFLVFile(name: name, offset: 5, reason: "header size \(headerSize)")
        }
        // PreviousTagSize0 follows the header.
        position = headerSize + 4
    }

    /// The next tag, or nil at the end of the file.
    /// - Throws: ``LivePackagingError/badFLVFile(name:offset:reason:)`` when a tag is cut short
    ///   or encrypted.
    public mutating func next() throws(LivePackagingError) -> Tag? {
        // A file may end right after a tag, without its last previous-tag-size.
        guard position < bytes.count else { return nil }
        let start = position
        guard bytes.count - start >= 11 else {
            throw .badFLVFile(name: name, offset: start, reason: "tag header cut short (\(bytes.count - start) of 11 bytes)")
        }
        let flags = bytes[start]
        guard flags & 0x20 == 0 else { throw .badFLVFile(name: name, offset: start, reason: "encrypted tag") }
        let size = Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        let timestamp = Int64(bytes[start + 7]) << 24 | Int64(bytes[start + 4]) << 16 | Int64(bytes[start + 5]) << 8
            | Int64(bytes[start + 6])
        let body = start + 11
        guard size <= bytes.count - body else {
            throw .badFLVFile(name: name, offset: start, reason: "tag body of \(size) bytes runs past the end (\(bytes.count - body) left)")
        }
        // The previous-tag-size after the body is not checked: writers get it wrong, and nothing depends on it.
        position = body + size + 4
        return Tag(type: flags & 0x1F, timestamp: timestamp, body: Array(bytes[body ..< body + size]), offset: start)
    }
}
