import Testing
@testable import FeedCore

@Suite("RTMP control, command, data and media messages")
struct RTMPControlMessageTests {
    @Test("every control message and user control event reads back as it was made",
          arguments: [RTMPControlMessage.setChunkSize(4096), .abort(chunkStream: 6), .acknowledgement(sequenceNumber: 0xFFFF_FFFF),
                      .windowAcknowledgementSize(2_500_000), .setPeerBandwidth(5_000_000, limit: .dynamic),
                      .userControl(.streamBegin(streamID: 1)), .userControl(.streamEOF(streamID: 1)),
                      .userControl(.streamDry(streamID: 2)), .userControl(.setBufferLength(streamID: 1, milliseconds: 3000)),
                      .userControl(.streamIsRecorded(streamID: 1)), .userControl(.pingRequest(timestamp: 77)),
                      .userControl(.pingResponse(timestamp: 77)), .userControl(.other(type: 31, data: [1, 2]))])
    func roundTrip(control: RTMPControlMessage) throws {
        #expect(try RTMPControlMessage(control.message) == control)
        #expect(control.message.streamID == 0)
    }

    @Test("control messages with short payloads are refused; other types are not control messages")
    func malformed() throws {
        #expect(throws: RTMPError.malformedControlMessage(type: 1, length: 3)) {
            try RTMPControlMessage(RTMPMessage(type: .setChunkSize, payload: [0, 0, 1]))
        }
        #expect(throws: RTMPError.malformedControlMessage(type: 6, length: 4)) {
            try RTMPControlMessage(RTMPMessage(type: .setPeerBandwidth, payload: [0, 0, 1, 0]))
        }
        #expect(throws: RTMPError.malformedControlMessage(type: 4, length: 3)) {
            try RTMPControlMessage(RTMPMessage(type: .userControl, payload: [0, 0, 1]))
        }
        #expect(try RTMPControlMessage(RTMPMessage(type: .video, payload: [])) == nil)
    }

    @Test("a command reads back its name, transaction, object and arguments; an AMF3 command skips its format byte")
    func command() throws {
        let command = RTMPCommand(name: "publish", transactionID: 5, arguments: [.string("KEY"), .string("live")])
        var amf3 = command.message(streamID: 1)
        amf3.type = .amf3Command
        amf3.payload.insert(0, at: 0)

        #expect(try RTMPCommand(command.message(streamID: 1)) == command)
        #expect(try RTMPCommand(amf3) == command)
        #expect(command.firstString == "KEY")
        #expect(throws: RTMPError.self) { try RTMPCommand(RTMPMessage(type: .amf0Command, payload: [0x00, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])) }
    }

    @Test("metadata is found after @setDataFrame or alone, in an ECMA array or an object")
    func metadata() throws {
        let properties: [AMF0.Property] = [.init("width", .number(320)), .init("height", .number(240))]

        #expect(try RTMPDataMessage(RTMPDataMessage.setDataFrame(properties).message(streamID: 1))?.metadata == properties)
        #expect(RTMPDataMessage(values: [.string("onMetaData"), .object(properties)]).metadata == properties)
        #expect(RTMPDataMessage(values: [.string("onCuePoint"), .object(properties)]).metadata == nil)
    }

    @Test("sequence headers and keyframes are told apart for AVC, HEVC, AAC and enhanced RTMP")
    func mediaFlags() {
        func video(_ bytes: [UInt8]) -> RTMPMediaMessage { RTMPMediaMessage(kind: .video, timestamp: 0, payload: bytes) }
        func audio(_ bytes: [UInt8]) -> RTMPMediaMessage { RTMPMediaMessage(kind: .audio, timestamp: 0, payload: bytes) }

        #expect(video(RTMPTestMedia.avcHeader).isSequenceHeader && video(RTMPTestMedia.avcHeader).isKeyframe)
        #expect(!video(RTMPTestMedia.avcFrame(keyframe: true)).isSequenceHeader && video(RTMPTestMedia.avcFrame(keyframe: true)).isKeyframe)
        #expect(!video(RTMPTestMedia.avcFrame(keyframe: false)).isKeyframe)
        #expect(video([0x1C, 0x00]).isSequenceHeader)  // HEVC as ffmpeg 5 tags it
        #expect(video([0x90, 0x68, 0x76, 0x63, 0x31]).isSequenceHeader && !video([0x91, 0x68]).isSequenceHeader)  // hvc1 SequenceStart, CodedFrames
        #expect(audio(RTMPTestMedia.aacHeader).isSequenceHeader && !audio(RTMPTestMedia.aacFrame).isSequenceHeader)
        #expect(!audio([0x2F, 0x00]).isSequenceHeader && !audio(RTMPTestMedia.aacHeader).isKeyframe)
        #expect(RTMPMediaMessage(RTMPMessage(type: .amf0Data, payload: [])) == nil)
    }

    @Test("an aggregate message gives its tags, timed from the aggregate's timestamp, and stops at a broken tag")
    func aggregate() {
        func tag(_ type: UInt8, time: UInt32, _ body: [UInt8]) -> [UInt8] {
            [type, 0, 0, UInt8(body.count), UInt8(time >> 16 & 0xFF), UInt8(time >> 8 & 0xFF), UInt8(time & 0xFF), UInt8(time >> 24), 0, 0, 1]
                + body + [0, 0, 0, UInt8(11 + body.count)]
        }
        let payload = tag(9, time: 5000, [0x27, 1]) + tag(8, time: 5020, [0xAF, 1]) + [9, 0, 0, 50, 0, 0]
        let message = RTMPMessage(type: .aggregate, streamID: 1, timestamp: 100, payload: payload)

        #expect(message.aggregatedMessages == [RTMPMessage(type: .video, streamID: 1, timestamp: 100, payload: [0x27, 1]),
                                               RTMPMessage(type: .audio, streamID: 1, timestamp: 120, payload: [0xAF, 1])])
        #expect(RTMPMessage(type: .video, payload: payload).aggregatedMessages.isEmpty)
    }
}
