import Testing
@testable import FeedCore

@Suite("RTMPChunkReader (chunks to messages)")
struct RTMPChunkReaderTests {
    /// A mixed stream from the writer: control, commands, media on several chunk streams,
    /// a chunk size change, extended timestamps and messages longer than a chunk.
    static func mixedStream() throws -> (bytes: [UInt8], messages: [RTMPMessage]) {
        var writer = RTMPChunkWriter()
        var bytes: [UInt8] = []
        var messages: [RTMPMessage] = []
        func write(_ message: RTMPMessage, chunkStream: UInt32? = nil) throws {
            bytes += try writer.write(message, chunkStream: chunkStream)
            messages.append(message)
        }
        try write(RTMPCommand(name: "connect", transactionID: 1, object: .object([.init("app", .string("live"))])).message())
        bytes += writer.setChunkSize(100)
        messages.append(RTMPControlMessage.setChunkSize(100).message)
        for index in 0 ..< 6 {
            let time = UInt32(index) * 40
            try write(RTMPMessage(type: .video, streamID: 1, timestamp: time, payload: RTMPTestMedia.avcFrame(keyframe: index == 0, size: 250)))
            try write(RTMPMessage(type: .audio, streamID: 1, timestamp: time, payload: RTMPTestMedia.aacFrame))
        }
        try write(RTMPMessage(type: .video, streamID: 1, timestamp: 0x0100_0000, payload: RTMPTestMedia.avcFrame(keyframe: false, size: 230)))
        try write(RTMPMessage(type: .video, streamID: 1, timestamp: 0x0200_0000, payload: RTMPTestMedia.avcFrame(keyframe: false, size: 230)))
        try write(RTMPMessage(type: .amf0Data, streamID: 1, payload: []), chunkStream: 400)
        try write(RTMPMessage(type: .video, streamID: 1, timestamp: 0x0200_0010, payload: [0x27, 1]), chunkStream: 70)
        return (bytes, messages)
    }

    @Test("type 0, 1, 2 and 3 headers each give their message, with timestamps added from the deltas")
    func everyFormat() throws {
        var reader = RTMPChunkReader()
        let bytes: [UInt8] = [0x04, 0x00, 0x00, 0x10, 0x00, 0x00, 0x03, 0x08, 0x01, 0x00, 0x00, 0x00, 0xA1, 0xA2, 0xA3]  // type 0
            + [0x44, 0x00, 0x00, 0x05, 0x00, 0x00, 0x02, 0x09, 0xB1, 0xB2]  // type 1: delta 5, 2 bytes of video
            + [0x84, 0x00, 0x00, 0x07, 0xC1, 0xC2]  // type 2: delta 7
            + [0xC4, 0xD1, 0xD2]  // type 3: the same again

        let messages = try reader.read(bytes)

        #expect(messages == [
            RTMPMessage(type: .audio, streamID: 1, timestamp: 16, payload: [0xA1, 0xA2, 0xA3]),
            RTMPMessage(type: .video, streamID: 1, timestamp: 21, payload: [0xB1, 0xB2]),
            RTMPMessage(type: .video, streamID: 1, timestamp: 28, payload: [0xC1, 0xC2]),
            RTMPMessage(type: .video, streamID: 1, timestamp: 35, payload: [0xD1, 0xD2]),
        ])
    }

    @Test("a type 3 header after a type 0 takes the type 0's timestamp as its delta, as the spec's example has it")
    func typeThreeAfterTypeZero() throws {
        var reader = RTMPChunkReader()
        let bytes: [UInt8] = [0x04, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x01, 0x08, 0x01, 0x00, 0x00, 0x00, 0xAA, 0xC4, 0xBB]

        #expect(try reader.read(bytes).map(\.timestamp) == [10, 20])
    }

    @Test("extended timestamps: on the full header, repeated on continuation chunks, and as a type 3 delta")
    func extendedTimestamps() throws {
        var reader = RTMPChunkReader()
        let payload = [UInt8](repeating: 0x55, count: 200)
        let first: [UInt8] = [0x06, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0xC8, 0x09, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00]
            + payload[..<128] + [0xC6, 0x01, 0x00, 0x00, 0x00] + payload[128...]
        let second: [UInt8] = [0xC6, 0x01, 0x00, 0x00, 0x00] + payload[..<128] + [0xC6, 0x01, 0x00, 0x00, 0x00] + payload[128...]

        let messages = try reader.read(first + second)

        #expect(messages.map(\.timestamp) == [0x0100_0000, 0x0200_0000])
        #expect(messages.allSatisfy { $0.payload == payload })
    }

    @Test("one- two- and three-byte basic headers name chunk streams 2 … 65599")
    func chunkStreamIDs() throws {
        for chunkStream: UInt32 in [2, 63, 64, 319, 320, 65599] {
            var writer = RTMPChunkWriter()
            var reader = RTMPChunkReader()
            let message = RTMPMessage(type: .video, streamID: 1, timestamp: 9, payload: [1, 2, 3])

            let bytes = try writer.write(message, chunkStream: chunkStream)

            #expect(bytes.count == 3 + 11 + (chunkStream < 64 ? 1 : chunkStream < 320 ? 2 : 3))
            #expect(try reader.read(bytes) == [message])
        }
    }

    @Test("messages interleaved chunk by chunk on two chunk streams come out whole, in the order they complete")
    func interleaved() throws {
        var writer = RTMPChunkWriter()
        let video = RTMPMessage(type: .video, streamID: 1, timestamp: 40, payload: [UInt8](repeating: 5, count: 300))
        let audio = RTMPMessage(type: .audio, streamID: 1, timestamp: 41, payload: [UInt8](repeating: 7, count: 200))
        let videoBytes = try writer.write(video)  // 12 + 128, 1 + 128, 1 + 44
        let audioBytes = try writer.write(audio)  // 12 + 128, 1 + 72
        var bytes = Array(videoBytes[..<140])
        bytes += audioBytes[..<140]
        bytes += videoBytes[140 ..< 269]
        bytes += audioBytes[140...]
        bytes += videoBytes[269...]
        var reader = RTMPChunkReader()

        #expect(try reader.read(bytes) == [audio, video])
    }

    @Test("a chunk size of 1 set by the peer is applied: every payload byte its own chunk")
    func chunkSizeOne() throws {
        var writer = RTMPChunkWriter()
        var reader = RTMPChunkReader()
        let message = RTMPMessage(type: .video, streamID: 1, timestamp: 5, payload: Array(0 ..< 50))

        let bytes = writer.setChunkSize(1) + (try writer.write(message))
        let messages = try reader.read(bytes)

        #expect(bytes.count == 16 + 12 + 1 + 49 * 2)
        #expect(messages == [RTMPControlMessage.setChunkSize(1).message, message])
        #expect(reader.chunkSize == 1)
    }

    @Test("the largest chunk size is accepted; 0 and 2^31 are refused")
    func chunkSizeLimits() throws {
        func setChunkSize(_ size: UInt32) throws -> RTMPChunkReader {
            var reader = RTMPChunkReader()
            var writer = RTMPChunkWriter()
            _ = try reader.read(try writer.write(RTMPControlMessage.setChunkSize(size).message))
            return reader
        }

        #expect(try setChunkSize(0x7FFF_FFFF).chunkSize == 0x7FFF_FFFF)
        #expect(throws: RTMPError.invalidChunkSize(0)) { try setChunkSize(0) }
        #expect(throws: RTMPError.invalidChunkSize(0x8000_0000)) { try setChunkSize(0x8000_0000) }
    }

    @Test("the input split at every byte, or fed byte by byte, gives the same messages")
    func everySplit() throws {
        let (bytes, messages) = try Self.mixedStream()
        var whole = RTMPChunkReader()
        #expect(try whole.read(bytes) == messages)

        for cut in 0 ... bytes.count {
            var reader = RTMPChunkReader()
            let read = try reader.read(Array(bytes[..<cut])) + reader.read(Array(bytes[cut...]))
            #expect(read == messages, "cut at \(cut)")
        }
        var byByte = RTMPChunkReader()
        var read: [RTMPMessage] = []
        for byte in bytes { read += try byByte.read([byte]) }
        #expect(read == messages)
    }

    @Test("a message announced over the limit is refused at its header, and the reader stays failed")
    func overLimit() throws {
        var writer = RTMPChunkWriter()
        var reader = RTMPChunkReader(maxMessageLength: 1000)
        let header = Array(try writer.write(RTMPMessage(type: .video, streamID: 1, payload: [UInt8](repeating: 0, count: 1001))).prefix(12))

        #expect(throws: RTMPError.messageTooLarge(length: 1001, limit: 1000)) { try reader.read(header) }
        #expect(throws: RTMPError.messageTooLarge(length: 1001, limit: 1000)) { try reader.read([0xC2]) }
        #expect(RTMPError.messageTooLarge(length: 1001, limit: 1000).kind == .tooLarge)
    }

    @Test("unfinished messages on many chunk streams may not announce more than twice the limit together")
    func tooMuchBuffered() throws {
        var reader = RTMPChunkReader(maxMessageLength: 1000)
        var writer = RTMPChunkWriter()
        let message = RTMPMessage(type: .video, streamID: 1, payload: [UInt8](repeating: 0, count: 900))
        func start(on chunkStream: UInt32) throws -> [UInt8] { Array(try writer.write(message, chunkStream: chunkStream).prefix(12 + 128)) }

        #expect(try reader.read(start(on: 4) + start(on: 5)).isEmpty)
        #expect(throws: RTMPError.tooMuchBuffered(bytes: 2700, limit: 2000)) { try reader.read(try start(on: 6)) }
    }

    @Test("abbreviated headers on a chunk stream that never had a full one are refused")
    func chunkWithoutHeader() {
        var typeThree = RTMPChunkReader()
        #expect(throws: RTMPError.chunkWithoutHeader(chunkStream: 5, format: 3)) { try typeThree.read([0xC5, 0x00]) }
        var typeTwo = RTMPChunkReader()
        #expect(throws: RTMPError.chunkWithoutHeader(chunkStream: 5, format: 2)) { try typeTwo.read([0x85, 0, 0, 1]) }
    }

    @Test("a new header inside an unfinished message: the same length and type carry on, others are refused")
    func headerInsideMessage() throws {
        let start: [UInt8] = [0x04, 0, 0, 1, 0, 0x00, 0xC8, 0x08, 1, 0, 0, 0] + [UInt8](repeating: 1, count: 128)
        var same = RTMPChunkReader()
        let carried = try same.read(start + [0x44, 0, 0, 0, 0, 0x00, 0xC8, 0x08] + [UInt8](repeating: 2, count: 72))
        #expect(carried.map(\.payload) == [[UInt8](repeating: 1, count: 128) + [UInt8](repeating: 2, count: 72)])

        var other = RTMPChunkReader()
        #expect(throws: RTMPError.headerInsideMessage(chunkStream: 4)) {
            try other.read(start + [0x44, 0, 0, 0, 0, 0x00, 0x10, 0x08])
        }
    }

    @Test("Abort drops a chunk stream's unfinished message and the stream starts afresh")
    func abort() throws {
        var reader = RTMPChunkReader()
        var writer = RTMPChunkWriter()
        let long = RTMPMessage(type: .video, streamID: 1, payload: [UInt8](repeating: 3, count: 300))
        let partial = Array(try writer.write(long, chunkStream: 6).prefix(12 + 128))
        let short = RTMPMessage(type: .video, streamID: 1, timestamp: 80, payload: [9, 9])
        var fresh = RTMPChunkWriter()

        let messages = try reader.read(partial + writer.write(RTMPControlMessage.abort(chunkStream: 6).message)
            + fresh.write(short, chunkStream: 6))

        #expect(messages == [RTMPControlMessage.abort(chunkStream: 6).message, short])
    }

    @Test("a zero-length message completes at its header")
    func empty() throws {
        var reader = RTMPChunkReader()
        #expect(try reader.read([0x03, 0, 0, 0, 0, 0, 0, 0x14, 0, 0, 0, 0]) == [RTMPMessage(type: .amf0Command, payload: [])])
    }

    @Test("random bytes, and the mixed stream with random bytes changed, never crash the reader")
    func randomBytes() throws {
        var random = RTMPSeededRandom(seed: 0x5EED)
        let (stream, _) = try Self.mixedStream()
        for round in 0 ..< 1500 {
            var bytes: [UInt8]
            if round.isMultiple(of: 2) {
                bytes = (0 ..< Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = stream
                for _ in 0 ..< 1 + Int(random.next() % 4) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            var reader = RTMPChunkReader(maxMessageLength: 4096)
            _ = try? reader.read(bytes)
        }
    }
}
