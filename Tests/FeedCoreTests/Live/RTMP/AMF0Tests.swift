import Testing
@testable import FeedCore

@Suite("AMF0 encoder and decoder")
struct AMF0Tests {
    static let sample = AMF0.object([
        .init("app", .string("live")),
        .init("fpad", .boolean(false)),
        .init("capabilities", .number(239)),
        .init("nothing", .null),
        .init("gone", .undefined),
        .init("when", .date(milliseconds: 1_700_000_000_000, timeZone: 0)),
        .init("list", .strictArray([.number(1), .string("two"), .object([.init("three", .number(3))])])),
        .init("meta", .ecmaArray([.init("width", .number(1920)), .init("encoder", .string("Lavf59.27.100"))])),
        .init("text", .string("Été 🌊")),
    ])

    @Test("every kind of value comes back as it was encoded")
    func roundTrip() throws {
        let values: [AMF0] = [Self.sample, .number(-0.5), .number(.infinity), .boolean(true), .string(""), .null, .undefined,
                              .ecmaArray([]), .strictArray([]), .object([]), .date(milliseconds: -1, timeZone: -60)]

        let decoded = try AMF0Decoder.decodeAll(AMF0Encoder.encode(values)[...])

        #expect(decoded == values)
    }

    @Test("the bytes are AMF0's: markers, big-endian lengths and numbers, the object-end marker")
    func exactBytes() {
        #expect(AMF0Encoder.encode([.string("app")]) == [0x02, 0x00, 0x03, 0x61, 0x70, 0x70])
        #expect(AMF0Encoder.encode([.number(1)]) == [0x00, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(AMF0Encoder.encode([.object([.init("a", .boolean(true))])]) == [0x03, 0x00, 0x01, 0x61, 0x01, 0x01, 0x00, 0x00, 0x09])
        #expect(AMF0Encoder.encode([.ecmaArray([.init("a", .null)])]) == [0x08, 0, 0, 0, 1, 0x00, 0x01, 0x61, 0x05, 0x00, 0x00, 0x09])
        #expect(AMF0Encoder.encode([.null, .undefined]) == [0x05, 0x06])
    }

    @Test("a string over 65535 bytes is written as a long string and read back whole")
    func longString() throws {
        let text = String(repeating: "x", count: 70000)

        let bytes = AMF0Encoder.encode([.string(text)])

        #expect(bytes.prefix(5) == [0x0C, 0x00, 0x01, 0x11, 0x70])
        var decoder = AMF0Decoder(bytes)
        #expect(try decoder.decode() == .string(text))
        #expect(decoder.isAtEnd)
    }

    @Test("a property name AMF0 cannot carry is cut at a character boundary")
    func longName() throws {
        let name = String(repeating: "é", count: 40000)  // 80000 bytes

        let decoded = try AMF0Decoder.decodeAll(AMF0Encoder.encode([.object([.init(name, .null)])])[...])

        let cut = try #require(decoded.first?.properties?.first?.name)
        #expect(cut == String(repeating: "é", count: 32767))
    }

    @Test("32 nested containers are read and the 33rd is refused, without recursing further")
    func depth() throws {
        func nested(_ depth: Int) -> [UInt8] {
            Array([[UInt8]](repeating: [0x0A, 0, 0, 0, 1], count: depth).joined()) + [0x05]
        }

        var ok = AMF0Decoder(nested(32))
        _ = try ok.decode()
        #expect(throws: RTMPError.amf0TooDeep(limit: 32)) { var decoder = AMF0Decoder(nested(33)); _ = try decoder.decode() }
        #expect(throws: RTMPError.amf0TooDeep(limit: 32)) { var decoder = AMF0Decoder(nested(200_000)); _ = try decoder.decode() }
        let objects = Array([[UInt8]](repeating: [0x03, 0x00, 0x01, 0x61], count: 1000).joined())
        #expect(throws: RTMPError.amf0TooDeep(limit: 32)) { var decoder = AMF0Decoder(objects); _ = try decoder.decode() }
    }

    @Test("every cut of a value before its end is a truncation at or before the cut")
    func truncated() {
        let bytes = AMF0Encoder.encode([.object(Self.sample.properties!.filter { $0.name != "meta" })])
        for cut in 0 ..< bytes.count {
            var decoder = AMF0Decoder(Array(bytes[..<cut]))
            #expect(performing: { _ = try decoder.decode() }, throws: { error in
                guard case let .amf0Truncated(offset)? = error as? RTMPError else { return false }
                return offset <= cut
            })
        }
    }

    @Test("lengths and counts past the end of the bytes are truncations, not allocations",
          arguments: [[0x02, 0xFF, 0xFF, 0x61], [0x0C, 0xFF, 0xFF, 0xFF, 0xFF, 0x61], [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x05],
                      [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x05], [0x03, 0x00, 0x05, 0x61], [0x00, 0x3F], [0x0B, 0, 0, 0, 0, 0, 0, 0, 0, 0]] as [[UInt8]])
    func pastTheEnd(bytes: [UInt8]) {
        #expect(performing: { var decoder = AMF0Decoder(bytes); _ = try decoder.decode() }, throws: { error in
            if case .amf0Truncated? = error as? RTMPError { true } else { false }
        })
    }

    @Test("references, typed objects, AMF3 and a stray object end are refused with their offset",
          arguments: [0x04, 0x07, 0x09, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0xFF] as [UInt8])
    func unsupported(marker: UInt8) {
        #expect(throws: RTMPError.amf0UnsupportedMarker(marker, offset: 1)) {
            _ = try AMF0Decoder.decodeAll([0x05, marker, 0, 0, 0, 0][...])
        }
    }

    @Test("an ECMA array whose bytes end without the end marker is taken as ended, as librtmp reads it")
    func ecmaArrayWithoutEnd() throws {
        let bytes: [UInt8] = [0x08, 0, 0, 0, 1, 0x00, 0x01, 0x61, 0x01, 0x01]

        #expect(try AMF0Decoder.decodeAll(bytes[...]) == [.ecmaArray([.init("a", .boolean(true))])])
    }

    @Test("invalid UTF-8 becomes U+FFFD")
    func invalidUTF8() throws {
        #expect(try AMF0Decoder.decodeAll([0x02, 0x00, 0x02, 0xFF, 0x61][...]) == [.string("\u{FFFD}a")])
    }

    @Test("a repeated name: the subscript and the dictionary keep its last value")
    func lookups() {
        let value = AMF0.object([.init("code", .string("first")), .init("code", .string("last")), .init("n", .number(2))])

        #expect(value["code"] == .string("last"))
        #expect(value.dictionary?["code"]?.stringValue == "last")
        #expect(value["n"]?.numberValue == 2)
        #expect(AMF0.null["code"] == nil)
    }

    @Test("random bytes never crash the decoder")
    func randomBytes() {
        var random = RTMPSeededRandom(seed: 0xA3F0)
        for round in 0 ..< 3000 {
            let count = Int(random.next() % 64)
            var bytes = (0 ..< count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if round.isMultiple(of: 3), !bytes.isEmpty { bytes[0] = UInt8(random.next() % 13) }  // mostly valid markers
            _ = try? AMF0Decoder.decodeAll(bytes[...])
        }
    }
}
