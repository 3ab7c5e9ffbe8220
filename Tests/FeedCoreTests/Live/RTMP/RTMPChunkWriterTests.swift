import Testing
@testable import FeedCore

@Suite("RTMPChunkWriter (messages to chunks)")
struct RTMPChunkWriterTests {
    @Test("headers shrink as ffmpeg's do: full, then without stream id, then delta only, then none")
    func headerCompression() throws {
        var writer = RTMPChunkWriter()
        let frame = [UInt8](repeating: 1, count: 10)

        let first = try writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 0, payload: frame))
        let longer = try writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 33, payload: frame + [2]))
        let newDelta = try writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 73, payload: frame + [3]))
        let sameDelta = try writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 113, payload: frame + [4]))
        let backwards = try writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 100, payload: frame + [5]))

        #expect(first.prefix(12) == [0x06, 0, 0, 0, 0, 0, 10, 0x09, 1, 0, 0, 0])
        #expect(longer.prefix(8) == [0x46, 0, 0, 33, 0, 0, 11, 0x09])
        #expect(newDelta.prefix(4) == [0x86, 0, 0, 40])
        #expect(sameDelta.prefix(2) == [0xC6, 1])
        #expect(backwards.first == 0x06)
        var reader = RTMPChunkReader()
        #expect(try reader.read(first + longer + newDelta + sameDelta + backwards).map(\.timestamp) == [0, 33, 73, 113, 100])
    }

    @Test("a payload longer than the chunk size is split, each later chunk behind a one-byte type 3 header")
    func chunking() throws {
        var writer = RTMPChunkWriter()
        let payload = Array(repeating: UInt8(0xEE), count: 300)

        let bytes = try writer.write(RTMPMessage(type: .audio, streamID: 1, payload: payload))

        #expect(bytes.count == 12 + 300 + 2)
        #expect(bytes[12 + 128] == 0xC4 && bytes[12 + 128 + 1 + 128] == 0xC4)
    }

    @Test("an extended timestamp follows the header and is repeated on every continuation chunk")
    func extended() throws {
        var writer = RTMPChunkWriter()
        let bytes = try writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: 0x1234_5678, payload: [UInt8](repeating: 0, count: 200)))

        #expect(bytes.prefix(4) == [0x06, 0xFF, 0xFF, 0xFF])
        #expect(bytes[12 ..< 16] == [0x12, 0x34, 0x56, 0x78])
        #expect(bytes[16 + 128 ..< 16 + 128 + 5] == [0xC6, 0x12, 0x34, 0x56, 0x78])
    }

    @Test("Set Chunk Size is written at the old size and everything after at the new one")
    func setChunkSize() throws {
        var writer = RTMPChunkWriter()

        let control = writer.setChunkSize(4096)
        let bytes = try writer.write(RTMPMessage(type: .video, streamID: 1, payload: [UInt8](repeating: 0, count: 4000)))

        #expect(control == [0x02, 0, 0, 0, 0, 0, 4, 0x01, 0, 0, 0, 0, 0, 0, 0x10, 0x00])
        #expect(bytes.count == 12 + 4000)
        #expect(writer.setChunkSize(0) == [0xC2, 0, 0, 0, 1] && writer.chunkSize == 1)  // cut to 1; the header repeats the last
    }

    @Test("payloads over 16 MiB - 1 and chunk stream ids outside 2 … 65599 are refused")
    func limits() {
        var writer = RTMPChunkWriter()
        #expect(throws: RTMPError.payloadTooLarge(length: 1 << 24)) {
            try writer.write(RTMPMessage(type: .video, payload: [UInt8](repeating: 0, count: 1 << 24)))
        }
        #expect(throws: RTMPError.invalidChunkStream(1)) { try writer.write(RTMPMessage(type: .video, payload: []), chunkStream: 1) }
        #expect(throws: RTMPError.invalidChunkStream(65600)) { try writer.write(RTMPMessage(type: .video, payload: []), chunkStream: 65600) }
    }
}
