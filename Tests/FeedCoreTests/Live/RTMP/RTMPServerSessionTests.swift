import Testing
@testable import FeedCore

@Suite("RTMPServerSession (the server end, driven by hand)")
struct RTMPServerSessionTests {
    @Test("connect is answered with window, bandwidth, chunk size 4096 and NetConnection.Connect.Success")
    func connect() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        #expect(try peer.handshake(with: &server).isEmpty)
        #expect(server.state == .connecting)

        let events = try server.receive(peer.command("connect", object: .object([.init("app", .string("live"))])))
        let messages = try peer.messages(in: events)

        #expect(events.count == 1)
        #expect(try messages.prefix(3).map { try RTMPControlMessage($0) } == [
            .windowAcknowledgementSize(2_500_000), .setPeerBandwidth(2_500_000, limit: .dynamic), .setChunkSize(4096),
        ])
        let result = try #require(try RTMPCommand(messages[3]))
        #expect(result.name == "_result" && result.transactionID == 1)
        #expect(result.info?["code"] == .string("NetConnection.Connect.Success"))
        #expect(result.object["fmsVer"] != nil)
        #expect(server.state == .connected(app: "live"))
    }

    @Test("releaseStream and FCPublish get an empty _result, createStream stream id 1")
    func createStream() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()

        let events = try peer.connect(&server)
        let results = try peer.commands(in: events).filter { $0.name == "_result" }

        #expect(results.map(\.transactionID) == [1, 2, 3, 4])
        #expect(results[1].arguments == [.undefined] && results[2].arguments == [.undefined])
        #expect(results[3].arguments == [.number(1)])
    }

    @Test("publish asks the caller with the connect's app and the name before its query string")
    func publish() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server, app: "live")

        let events = try server.receive(peer.command("publish", [.string("KEY?token=abc&x=1"), .string("live")], streamID: 1))

        #expect(events == [.publish(app: "live", streamKey: "KEY")])
        #expect(server.state == .awaitingAuthorization(app: "live", streamKey: "KEY"))
    }

    @Test("accept sends Stream Begin and NetStream.Publish.Start on the publish's stream")
    func accept() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        _ = try server.receive(peer.command("publish", [.string("KEY"), .string("live")], streamID: 1))

        let messages = try peer.messages(in: [.send(server.accept())])

        #expect(try RTMPControlMessage(messages[0]) == .userControl(.streamBegin(streamID: 1)))
        let status = try #require(try RTMPCommand(messages[1]))
        #expect(status.name == "onStatus" && messages[1].streamID == 1)
        #expect(status.info?["level"] == .string("status") && status.info?["code"] == .string("NetStream.Publish.Start"))
        #expect(server.state == .publishing(app: "live", streamKey: "KEY"))
        #expect(server.accept().isEmpty)
    }

    @Test("before accept frames are dropped; the latest metadata and sequence headers are held and come first after it")
    func heldUntilAccepted() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        _ = try server.receive(peer.command("publish", [.string("KEY")], streamID: 1))
        let early = try peer.writer.write(RTMPDataMessage.setDataFrame([.init("width", .number(320))]).message(streamID: 1))
            + peer.writer.write(RTMPMessage(type: .audio, streamID: 1, payload: RTMPTestMedia.aacHeader))
            + peer.writer.write(RTMPMessage(type: .video, streamID: 1, payload: RTMPTestMedia.avcHeader))
            + peer.writer.write(RTMPMessage(type: .video, streamID: 1, payload: RTMPTestMedia.avcFrame(keyframe: true)))

        #expect(try server.receive(early).isEmpty)
        _ = server.accept()
        let frame = RTMPMessage(type: .video, streamID: 1, timestamp: 33, payload: RTMPTestMedia.avcFrame(keyframe: false))
        let events = try server.receive(peer.writer.write(frame))

        #expect(events == [
            .metadata(["width": .number(320)]),
            .media(RTMPMediaMessage(kind: .video, timestamp: 0, payload: RTMPTestMedia.avcHeader)),
            .media(RTMPMediaMessage(kind: .audio, timestamp: 0, payload: RTMPTestMedia.aacHeader)),
            .media(RTMPMediaMessage(frame)!),
        ])
    }

    @Test("before its publish is accepted a peer may send messages of 64 KiB at most; after it, frames up to the session's limit")
    func unauthorizedLimit() throws {
        // Given a connected peer whose publish waits for authorization,
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        _ = try server.receive(peer.command("publish", [.string("KEY")], streamID: 1))
        // when it sends a 100 KiB frame before the answer, the session refuses it;
        let early = RTMPMessage(type: .video, streamID: 1, payload: RTMPTestMedia.avcFrame(keyframe: true, size: 100 << 10))
        #expect(throws: RTMPError.messageTooLarge(length: early.payload.count, limit: RTMPServerSession.unauthorizedMessageLength)) {
            try server.receive(peer.writer.write(early))
        }

        // and once accepted, a 1 MiB key frame goes through.
        var trusted = RTMPServerSession()
        var publisher = RTMPTestPublisher()
        _ = try publisher.connect(&trusted)
        _ = try trusted.receive(publisher.command("publish", [.string("KEY")], streamID: 1))
        _ = trusted.accept()
        let frame = RTMPMessage(type: .video, streamID: 1, payload: RTMPTestMedia.avcFrame(keyframe: true, size: 1 << 20))
        #expect(RTMPTestPublisher.media(try trusted.receive(publisher.writer.write(frame))) == [RTMPMediaMessage(frame)!])
    }

    @Test("reject sends onStatus error NetStream.Publish.BadName, and then every byte is refused")
    func reject() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        _ = try server.receive(peer.command("publish", [.string("nope")], streamID: 1))

        let status = try #require(try peer.commands(in: [.send(server.reject(description: "unknown key"))]).first)
        let after = try server.receive(peer.writer.write(RTMPMessage(type: .video, streamID: 1, payload: RTMPTestMedia.avcHeader)))

        #expect(status.name == "onStatus")
        #expect(status.info?["level"] == .string("error") && status.info?["code"] == .string("NetStream.Publish.BadName"))
        #expect(status.info?["description"] == .string("unknown key"))
        #expect(after == [.closed(.publishRejected(streamKey: "nope"))])
        #expect(server.accept().isEmpty)
    }

    @Test("FCUnpublish ends the publish once; deleteStream of another stream does not")
    func unpublish() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        _ = try server.receive(peer.command("publish", [.string("KEY")], streamID: 1))
        _ = server.accept()

        let other = try server.receive(peer.command("deleteStream", [.number(7)]))
        let events = try server.receive(peer.command("FCUnpublish", [.string("KEY")]) + peer.command("deleteStream", [.number(1)]))

        #expect(RTMPTestPublisher.happenings(other).isEmpty)
        #expect(events == [.unpublished])
        #expect(server.state == .connected(app: "live"))
    }

    @Test("a waiting publish given up by the peer surfaces unpublished, and accept then does nothing")
    func givenUp() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        _ = try server.receive(peer.command("publish", [.string("KEY")], streamID: 1))

        #expect(try server.receive(peer.command("deleteStream", [.number(1)])) == [.unpublished])
        #expect(server.accept().isEmpty && server.reject().isEmpty)
    }

    @Test("unknown commands expecting an answer get an empty _result; notifications get nothing")
    func unknownCommands() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)

        let answered = try peer.commands(in: server.receive(peer.command("getStreamLength", [.string("x")], transaction: 9)))
        let ignored = try server.receive(peer.command("setPlaylist", transaction: 0))

        #expect(answered == [RTMPCommand(name: "_result", transactionID: 9, arguments: [.undefined])])
        #expect(ignored.isEmpty)
    }

    @Test("commands out of order are refused: anything before connect, a second connect, a second publish")
    func outOfOrder() throws {
        var early = RTMPServerSession()
        var first = RTMPTestPublisher()
        _ = try first.handshake(with: &early)
        #expect(throws: RTMPError.unexpectedCommand(name: "publish", reason: "it came before connect")) {
            try early.receive(first.command("publish", [.string("KEY")]))
        }

        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        #expect(throws: RTMPError.self) { try server.receive(peer.command("connect", object: .object([]))) }

        var twice = RTMPServerSession()
        var publisher = RTMPTestPublisher()
        _ = try publisher.connect(&twice)
        _ = try twice.receive(publisher.command("publish", [.string("A")], streamID: 1))
        #expect(throws: RTMPError.self) { try twice.receive(publisher.command("publish", [.string("B")], streamID: 1)) }
    }

    @Test("the peer's window is acknowledged with the bytes received; pings are answered; Set Peer Bandwidth gets a window")
    func acknowledgements() throws {
        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.connect(&server)
        let window = try peer.writer.write(RTMPControlMessage.windowAcknowledgementSize(1000).message)
        _ = try server.receive(window)

        let big = try peer.writer.write(RTMPMessage(type: .amf0Data, streamID: 1, payload: [UInt8](repeating: 0x05, count: 1200)))
        let acked = try peer.messages(in: server.receive(big)).compactMap { try RTMPControlMessage($0) }
        let ping = try peer.messages(in: server.receive(peer.writer.write(RTMPControlMessage.userControl(.pingRequest(timestamp: 42)).message)))
        let bandwidth = try peer.messages(in: server.receive(peer.writer.write(RTMPControlMessage.setPeerBandwidth(9000, limit: .hard).message)))

        guard case let .acknowledgement(sequence)? = acked.last else { Issue.record("no acknowledgement: \(acked)"); return }
        #expect(sequence > 1200)
        #expect(try ping.map { try RTMPControlMessage($0) } == [.userControl(.pingResponse(timestamp: 42))])
        #expect(try bandwidth.map { try RTMPControlMessage($0) } == [.windowAcknowledgementSize(9000)])
    }

    @Test("a handshake in another version and a broken chunk stream are errors")
    func errors() throws {
        var http = RTMPServerSession()
        #expect(throws: RTMPError.unsupportedVersion(UInt8(ascii: "G"))) { try http.receive(Array("GET / HTTP/1.1\r\n".utf8)) }

        var server = RTMPServerSession()
        var peer = RTMPTestPublisher()
        _ = try peer.handshake(with: &server)
        #expect(throws: RTMPError.chunkWithoutHeader(chunkStream: 3, format: 3)) { try server.receive([0xC3]) }
    }

    @Test("a publisher's whole conversation with random bytes changed, fed in random pieces, never crashes the session")
    func mutatedConversations() throws {
        var writer = RTMPChunkWriter()
        var conversation: [UInt8] = [3] + [UInt8](repeating: 0, count: 1536 * 2)  // the server does not check C1 or C2
        func command(_ name: String, _ transaction: Double, object: AMF0 = .null, _ arguments: [AMF0] = [], streamID: UInt32 = 0) throws {
            conversation += try writer.write(RTMPCommand(name: name, transactionID: transaction, object: object, arguments: arguments)
                .message(streamID: streamID))
        }
        conversation += writer.setChunkSize(300)
        try command("connect", 1, object: .object([.init("app", .string("live"))]))
        try command("createStream", 2)
        try command("publish", 3, [.string("KEY")], streamID: 1)
        conversation += try writer.write(RTMPDataMessage.setDataFrame([.init("width", .number(320))]).message(streamID: 1))
        for index in 0 ..< 20 {
            conversation += try writer.write(RTMPMessage(type: .video, streamID: 1, timestamp: UInt32(index * 33),
                                                         payload: RTMPTestMedia.avcFrame(keyframe: index == 0, size: 700)))
        }
        try command("deleteStream", 4, [.number(1)])

        var random = RTMPSeededRandom(seed: 0xF00D)
        for _ in 0 ..< 400 {
            var bytes = conversation
            for _ in 0 ..< 1 + Int(random.next() % 3) {
                let index = 1 + Int(random.next() % UInt64(bytes.count - 1))
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
            var server = RTMPServerSession(maxMessageLength: 64 << 10)
            var offset = 0
            feeding: while offset < bytes.count {
                let end = min(bytes.count, offset + 1 + Int(random.next() % 2000))
                guard let events = try? server.receive(Array(bytes[offset ..< end])) else { break }
                if events.contains(where: { if case .publish = $0 { true } else { false } }) { _ = server.accept() }
                if events.contains(where: { if case .closed = $0 { true } else { false } }) { break feeding }
                offset = end
            }
        }
    }
}
