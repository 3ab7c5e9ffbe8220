import Testing
@testable import FeedCore

/// MP4Layout reads top-level box headers only: where `moov` is against the first `mdat`.
@Suite("MP4Layout")
struct MP4LayoutTests {
    /// A box header: 32-bit size (or 1 and a 64-bit size, or 0: to the end) and a type.
    static func box(_ type: String, _ size: Int, large: Bool = false) -> [UInt8] {
        func be(_ value: UInt64, _ bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let header = large ? be(1, 4) + Array(type.utf8) + be(UInt64(size), 8) : be(UInt64(size), 4) + Array(type.utf8)
        return header + [UInt8](repeating: 0, count: max(0, size - header.count))
    }

    static func layout(_ file: [UInt8]) -> MP4Layout? {
        MP4Layout.scan(size: Int64(file.count)) { offset, count in
            Array(file[Int(offset)..<min(file.count, Int(offset) + count)])
        }
    }

    @Test("moov before mdat is start, after it end; 64-bit sizes and a last box sized 0 (to the end) are read")
    func order() {
        let start = Self.box("ftyp", 24) + Self.box("moov", 100) + Self.box("mdat", 500)
        #expect(Self.layout(start)?.moovOffset == 24 && Self.layout(start)?.mdatOffset == 124)
        #expect(Self.layout(start)?.boxes.map(\.type) == ["ftyp", "moov", "mdat"])
        #expect(Self.layout(start)?.index == .start)
        let end = Self.box("ftyp", 24) + Self.box("free", 8) + Self.box("mdat", 300, large: true) + Self.box("moov", 100)
        #expect(Self.layout(end)?.moovOffset == 332 && Self.layout(end)?.mdatOffset == 32)
        #expect(Self.layout(end)?.moov == MP4Layout.TopBox(type: "moov", offset: 332, length: 100))
        #expect(Self.layout(end)?.index == .end)
        let toTheEnd = Self.box("ftyp", 24) + Self.box("moov", 40) + Array(Self.box("mdat", 64).prefix(4).map { _ in UInt8(0) }) + Array("mdat".utf8) + [UInt8](repeating: 7, count: 56)
        #expect(Self.layout(toTheEnd)?.mdatOffset == 64 && Self.layout(toTheEnd)?.index == .start)
    }

    @Test("not ISO base media (no ftyp first), no moov, or a first box past the end: nil")
    func refused() {
        #expect(Self.layout(Self.box("moov", 100) + Self.box("mdat", 10)) == nil)
        #expect(Self.layout(Self.box("ftyp", 24) + Self.box("mdat", 100)) == nil)
        #expect(Self.layout(Array(Self.box("ftyp", 24).prefix(12))) == nil)
        #expect(Self.layout(Array("RIFF....AVI LIST".utf8)) == nil)
    }
}
