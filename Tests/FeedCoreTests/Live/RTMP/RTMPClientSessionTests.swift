import Testing
@testable import FeedCore

@Suite("RTMPClientSession talking to RTMPServerSession in memory")
struct RTMPClientSessionTests {
    /// A client and a server joined by two byte queues, delivered in pieces of `piece` bytes.
    struct Pair {
        var client = RTMPClientSession(app: "live", tcURL: "rtmp://127.0.0.1:1935/live", streamKey: "KEY")
        var server = RTMPServerSession()
        var toServer: [UInt8] = []
        var toClient: [UInt8] = []
        var serverEvents: [RTMPServerEvent] = []
        var clientEvents: [RTMPClientEvent] = []
        var piece = Int.max

        init(piece: Int = .max) {
            self.piece = piece
            toServer = client.start()
        }

        /// Moves bytes both ways until neither side has anything to say.
        mutating func pump() throws {
            while !toServer.isEmpty || !toClient.isEmpty {
                while !toServer.isEmpty {
                    let bytes = Array(toServer.prefix(piece))
                    toServer.removeFirst(bytes.count)
                    for event in try server.receive(bytes) {
                        if case let .send(reply) = event { toClient += reply } else { serverEvents.append(event) }
                    }
                }
                while !toClient.isEmpty {
                    let bytes = Array(toClient.prefix(piece))
                    toClient.removeFirst(bytes.count)
                    for event in try client.receive(bytes) {
                        if case let .send(reply) = event { toServer += reply } else { clientEvents.append(event) }
                    }
                }
            }
        }

        /// Runs the conversation up to the server's publish event.
        mutating func connect() throws {
            try pump()
        }
    }

    @Test("handshake, connect, createStream and publish reach the server's publish event with app and key",
          arguments: [Int.max, 1, 7, 1000])
    func publish(piece: Int) throws {
        var pair = Pair(piece: piece)

        try pair.connect()

        #expect(pair.serverEvents == [.publish(app: "live", streamKey: "KEY")])
        #expect(pair.clientEvents.isEmpty)
        #expect(pair.client.state == .awaitingPublish(streamID: 1))
        #expect(throws: RTMPError.notPublishing) { try pair.client.media(RTMPMediaMessage(kind: .audio, timestamp: 0, payload: [0xAF, 1])) }
    }

    @Test("after accept the client publishes and the server surfaces metadata, sequence headers and every frame in order")
    func acceptAndMedia() throws {
        var pair = Pair(piece: 1000)
        try pair.connect()

        pair.toClient += pair.server.accept()
        try pair.pump()
        #expect(pair.clientEvents == [.publishStarted])
        #expect(pair.client.state == .publishing(streamID: 1))

        var sent: [RTMPMediaMessage] = [RTMPMediaMessage(kind: .video, timestamp: 0, payload: RTMPTestMedia.avcHeader),
                                        RTMPMediaMessage(kind: .audio, timestamp: 0, payload: RTMPTestMedia.aacHeader)]
        for frame in 0 ..< 90 {
            sent.append(RTMPMediaMessage(kind: .video, timestamp: UInt32(frame * 33),
                                         payload: RTMPTestMedia.avcFrame(keyframe: frame % 30 == 0, size: frame % 30 == 0 ? 20000 : 900)))
            sent.append(RTMPMediaMessage(kind: .audio, timestamp: UInt32(frame * 33 + 5), payload: RTMPTestMedia.aacFrame))
        }
        pair.toServer += try pair.client.metadata([.init("width", .number(320)), .init("height", .number(240))])
        for media in sent { pair.toServer += try pair.client.media(media) }
        try pair.pump()

        #expect(pair.serverEvents.first == .publish(app: "live", streamKey: "KEY"))
        #expect(pair.serverEvents.dropFirst().first == .metadata(["width": .number(320), "height": .number(240)]))
        #expect(RTMPTestPublisher.media(pair.serverEvents) == sent)

        pair.toServer += pair.client.unpublish()
        try pair.pump()
        #expect(pair.serverEvents.last == .unpublished)
        #expect(pair.client.state == .unpublished)
    }

    @Test("a rejected publish: the client is told BadName, cannot send media, and the server surfaces none")
    func rejected() throws {
        var pair = Pair()
        try pair.connect()

        pair.toClient += pair.server.reject(description: "no such key")
        try pair.pump()

        #expect(pair.clientEvents == [.refused(code: "NetStream.Publish.BadName", description: "no such key")])
        #expect(throws: RTMPError.publishRefused(code: "NetStream.Publish.BadName", description: "no such key")) {
            try pair.client.media(RTMPMediaMessage(kind: .video, timestamp: 0, payload: RTMPTestMedia.avcHeader))
        }
        #expect(RTMPError.publishRefused(code: "NetStream.Publish.BadName", description: "").kind == .forbidden)
        // A client that sends media anyway (here written by hand) gets nothing surfaced.
        var writer = RTMPChunkWriter()
        let forced = try writer.write(RTMPMessage(type: .video, streamID: 1, payload: RTMPTestMedia.avcHeader), chunkStream: 40)
        #expect(try pair.server.receive(forced) == [.closed(.publishRejected(streamKey: "KEY"))])
        #expect(RTMPTestPublisher.media(pair.serverEvents).isEmpty)
    }

    @Test("a connect answered with _error is a refusal with the server's code")
    func connectRefused() throws {
        var client = RTMPClientSession(app: "live", tcURL: "rtmp://h/live", streamKey: "KEY")
        var server = RTMPHandshake(role: .server)
        var writer = RTMPChunkWriter()
        let reply = try server.receive(client.start()).reply
        _ = try client.receive(reply)
        let error = RTMPCommand(name: "_error", transactionID: 1, arguments: [.object([
            .init("level", .string("error")), .init("code", .string("NetConnection.Connect.Rejected")), .init("description", .string("go away")),
        ])])

        let events = try client.receive(writer.write(error.message()))

        #expect(events == [.refused(code: "NetConnection.Connect.Rejected", description: "go away")])
    }
}
