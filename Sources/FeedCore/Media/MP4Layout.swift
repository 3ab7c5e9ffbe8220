import Foundation

/// Where an ISO base media file (MP4, MOV, M4V) keeps its index: the top-level boxes, read from
/// their headers alone. A file whose `moov` comes before its first `mdat` can start playing from
/// its first bytes ("fast start"); phones write `moov` after the media unless asked otherwise,
/// and a player then needs a second request for the file's tail before the first picture.
public struct MP4Layout: Sendable, Equatable {
    /// Where `moov` is relative to the media.
    public enum Index: String, Sendable, Equatable {
        /// Before the first `mdat`: fast start.
        case start
        /// After the media.
        case end
    }

    /// The byte offset of the `moov` box.
    public let moovOffset: Int64
    /// The byte offset of the first `mdat` box, if there is one.
    public let mdatOffset: Int64?
    /// Every top-level box, in file order (at most 10,000).
    let boxes: [TopBox]
    /// The file's size in bytes.
    let size: Int64

    /// A top-level box: its type, where it starts and its whole length.
    struct TopBox: Sendable, Equatable {
        let type: String
        let offset: Int64
        let length: Int64
        var end: Int64 { offset + length }
    }

    /// The `moov` box.
    var moov: TopBox? { boxes.first { $0.offset == moovOffset } }

    /// Where the index is: `start` unless an `mdat` comes first.
    public var index: Index {
        if let mdatOffset, mdatOffset < moovOffset { return .end }
        return .start
    }

    /// The layout of the file at `path`, or nil when it is not an ISO base media file (no
    /// `ftyp` first, a box that runs past the end, no `moov`) or cannot be read.
    public static func of(path: String) -> MP4Layout? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        return scan(size: Int64(size), read: reader(handle))
    }

    /// `read(offset, count)` over an open file: up to `count` bytes from `offset` (fewer at its
    /// end, none when it cannot be read).
    static func reader(_ handle: FileHandle) -> (Int64, Int) -> [UInt8] {
        { offset, count in
            try? handle.seek(toOffset: UInt64(offset))
            return (try? handle.read(upToCount: count)).map { [UInt8]($0) } ?? []
        }
    }

    /// The layout of `size` bytes read with `read(offset, count)`: top-level boxes only, at most
    /// 10,000 of them (a file of tiny boxes is not worth walking further).
    static func scan(size: Int64, read: (Int64, Int) -> [UInt8]) -> MP4Layout? {
        var offset: Int64 = 0
        var moov: Int64?, mdat: Int64?
        var found: [TopBox] = []
        var first = true
        var boxes = 0
        while offset + 8 <= size, boxes < 10_000 {
            boxes += 1
            let header = read(offset, 16)
            guard header.count >= 8 else { return nil }
            var length = Int64(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if length == 1 {
                guard header.count >= 16 else { return nil }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int64.max) else { return nil }
                length = Int64(large)
            } else if length == 0 {
                length = size - offset  // to the end of the file
            }
            if first {
                guard type == "ftyp" else { return nil }
                first = false
            }
            // `length <= size - offset`, not `offset + length <= size`: a 64-bit length near
            // Int64.max would overflow the sum.
            guard length >= 8, length <= size - offset else { break }
            found.append(TopBox(type: type, offset: offset, length: length))
            if type == "moov", moov == nil { moov = offset }
            if type == "mdat", mdat == nil { mdat = offset }
            offset += length
        }
        return moov.map { MP4Layout(moovOffset: $0, mdatOffset: mdat, boxes: found, size: size) }
    }
}
