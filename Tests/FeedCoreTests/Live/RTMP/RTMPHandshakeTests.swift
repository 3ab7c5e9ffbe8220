import Testing
@testable import FeedCore

@Suite("RTMPHandshake (C0 C1 C2, S0 S1 S2)")
struct RTMPHandshakeTests {
    @Test("client and server complete it: S2 echoes C1, C2 echoes S1, S1 carries no digest version")
    func bothEnds() throws {
        var client = RTMPHandshake(role: .client, epoch: 1234)
        var server = RTMPHandshake(role: .server)
        let c0c1 = client.start()

        let s0s1s2 = try server.receive(c0c1).reply
        let c2 = try client.receive(s0s1s2).reply
        let end = try server.receive(c2)

        #expect(c0c1.count == 1537 && c0c1[0] == 3 && c0c1[1 ..< 5] == [0, 0, 0x04, 0xD2])
        #expect(s0s1s2.count == 1 + 1536 * 2 && s0s1s2[0] == 3)
        #expect(s0s1s2[5 ..< 9] == [0, 0, 0, 0])
        #expect(Array(s0s1s2[1537...]) == Array(c0c1[1...]))
        #expect(c2 == Array(s0s1s2[1 ..< 1537]))
        #expect(client.isComplete && server.isComplete)
        #expect(end == RTMPHandshake.Step(reply: [], remainder: []))
        #expect(server.start().isEmpty)
    }

    @Test("bytes past the peer's last packet come back as the start of the chunk stream, however they were split")
    func remainder() throws {
        var client = RTMPHandshake(role: .client)
        var server = RTMPHandshake(role: .server)
        let s0s1s2 = try server.receive(client.start()).reply
        let c2 = try client.receive(s0s1s2).reply
        let stream = c2 + [0x03, 0xAA, 0xBB]

        var reply: [UInt8] = []
        var remainder: [UInt8] = []
        for byte in stream {
            let step = try server.receive([byte])
            reply += step.reply
            remainder += step.remainder
        }

        #expect(reply.isEmpty)
        #expect(remainder == [0x03, 0xAA, 0xBB])
    }

    @Test("any version but 3 is refused at its first byte", arguments: [0, 6, 31, UInt8(ascii: "G")] as [UInt8])
    func otherVersions(version: UInt8) {
        var server = RTMPHandshake(role: .server)
        #expect(throws: RTMPError.unsupportedVersion(version)) { try server.receive([version]) }
        var client = RTMPHandshake(role: .client)
        #expect(throws: RTMPError.unsupportedVersion(version)) { try client.receive([version, 0, 0]) }
    }
}
