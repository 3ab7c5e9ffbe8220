import Foundation

/// The model as the catalog keeps it: `FEEDRECS`, a format number, then each array as its
/// count and its little-endian elements, strings as their UTF-8 length and bytes.
extension RecsModel {
    static let magic = Array("FEEDRECS".utf8)
    static let format: UInt32 = 1

    /// The model's bytes.
    public func encoded() -> [UInt8] {
        var out = Self.magic
        var writer = ByteWriter(out: out)
        writer.put(Self.format)
        writer.put(videos)
        writer.put(strings: authors)
        writer.put(videoAuthor)
        writer.put(strings: tags)
        writer.put(tagOffsets)
        writer.put(tagList)
        writer.put(neighbourOffsets)
        writer.put(neighbours)
        writer.put(similarity)
        writer.put(quality)
        writer.put(trending)
        writer.put(trendScore)
        writer.put(tagTopOffsets)
        writer.put(tagTop)
        out = writer.out
        return out
    }

    /// The model `bytes` hold, with its row.
    /// - Throws: ``RecsError/unreadableModel(version:_:)`` when they are not one this code wrote.
    public init(decoding bytes: [UInt8], info: ModelInfo) throws(RecsError) {
        var reader = ByteReader(bytes: bytes)
        func fail(_ problem: String) -> RecsError { .unreadableModel(version: info.version, problem) }
        guard bytes.starts(with: Self.magic) else { throw fail("not a model (no FEEDRECS header)") }
        reader.at = Self.magic.count
        guard let format: UInt32 = reader.scalar(), format == Self.format else { throw fail("a format this feed does not read") }
        guard let videos: [Int64] = reader.array(), let authors = reader.strings(), let videoAuthor: [Int32] = reader.array(),
              let tags = reader.strings(), let tagOffsets: [Int32] = reader.array(), let tagList: [Int32] = reader.array(),
              let neighbourOffsets: [Int32] = reader.array(), let neighbours: [Int32] = reader.array(), let similarity: [Float] = reader.array(),
              let quality: [Float] = reader.array(), let trending: [Int32] = reader.array(), let trendScore: [Float] = reader.array(),
              let tagTopOffsets: [Int32] = reader.array(), let tagTop: [Int32] = reader.array(), reader.at == bytes.count else {
            throw fail("cut short or damaged")
        }
        let n = videos.count
        // Every index in range, so that serving never traps on a damaged row.
        func within(_ values: [Int32], _ bound: Int) -> Bool { values.allSatisfy { $0 >= -1 && Int($0) < bound } }
        func offsets(_ values: [Int32], count: Int, total: Int) -> Bool {
            values.count == count + 1 && values.first == 0 && Int(values.last ?? -1) == total && zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
        }
        guard videoAuthor.count == n, within(videoAuthor, authors.count), quality.count == n,
              offsets(tagOffsets, count: n, total: tagList.count), within(tagList, tags.count), !tagList.contains(-1),
              offsets(neighbourOffsets, count: n, total: neighbours.count), neighbours.count == similarity.count, within(neighbours, n), !neighbours.contains(-1),
              trending.count == trendScore.count, within(trending, n), !trending.contains(-1),
              offsets(tagTopOffsets, count: tags.count, total: tagTop.count), within(tagTop, n), !tagTop.contains(-1) else {
            throw fail("its indexes are out of range")
        }
        self.init(info: info, videos: videos, authors: authors, videoAuthor: videoAuthor, tags: tags, tagOffsets: tagOffsets, tagList: tagList,
                  neighbourOffsets: neighbourOffsets, neighbours: neighbours, similarity: similarity, quality: quality, trending: trending,
                  trendScore: trendScore, tagTopOffsets: tagTopOffsets, tagTop: tagTop)
    }
}

/// Appends scalars and arrays of them, little-endian.
struct ByteWriter {
    var out: [UInt8]

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    mutating func put<T: FixedWidthInteger>(_ values: [T]) {
        put(UInt64(values.count))
        for value in values { put(value) }
    }

    mutating func put(_ values: [Float]) {
        put(UInt64(values.count))
        for value in values { put(value.bitPattern) }
    }

    mutating func put(strings: [String]) {
        put(UInt64(strings.count))
        for string in strings {
            let bytes = Array(string.utf8)
            put(UInt32(bytes.count))
            out.append(contentsOf: bytes)
        }
    }
}

/// Reads what ``ByteWriter`` wrote; nil past the end.
struct ByteReader {
    let bytes: [UInt8]
    var at = 0

    mutating func scalar<T: FixedWidthInteger>() -> T? {
        let size = MemoryLayout<T>.size
        guard at + size <= bytes.count else { return nil }
        var value: T = 0
        for i in 0..<size { value |= T(truncatingIfNeeded: bytes[at + i]) << (8 * i) }
        at += size
        return value
    }

    /// A count that fits what is left (at least `size` bytes each).
    mutating func count(size: Int) -> Int? {
        guard let n: UInt64 = scalar(), n <= UInt64((bytes.count - at) / max(1, size)) else { return nil }
        return Int(n)
    }

    mutating func array<T: FixedWidthInteger>() -> [T]? {
        let size = MemoryLayout<T>.size
        guard let n = count(size: size) else { return nil }
        var values = [T](repeating: 0, count: n)
        values.withUnsafeMutableBytes { raw in
            bytes.withUnsafeBytes { source in raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[at..<(at + n * size)])) }
        }
        at += n * size
        // The host is little-endian on every platform feed builds for; swap elsewhere.
        if Int(littleEndian: 1) != 1 { values = values.map { T(littleEndian: $0) } }
        return values
    }

    mutating func array() -> [Float]? {
        guard let bits: [UInt32] = array() else { return nil }
        return bits.map(Float.init(bitPattern:))
    }

    mutating func strings() -> [String]? {
        guard let n = count(size: 4) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(n)
        for _ in 0..<n {
            guard let length: UInt32 = scalar(), at + Int(length) <= bytes.count else { return nil }
            strings.append(String(decoding: bytes[at..<(at + Int(length))], as: UTF8.self))
            at += Int(length)
        }
        return strings
    }
}
