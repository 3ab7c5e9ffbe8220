import FeedCore
import NIOCore
import NIOPosix

/// Sends a ``LivePublishSource`` to an RTMP server at real time, with feed's own RTMP client
/// (``RTMPClientSession``, the protocol code the server side shares).
///
/// Three loops share the connection: one reads the server's bytes into the session (its
/// answers, acknowledgements and pings), one writes, in order, every byte the session makes,
/// and the caller's task paces the media: each message waits until its timestamp on `clock`,
/// counted from when the server said the publish started.
public struct RTMPPublisher: Sendable {
    /// Where to send.
    public let target: RTMPPublishTarget
    /// How long connecting and the server's answer to `publish` may take.
    public let answerTimeout: Duration

    /// A publisher to `target`.
    public init(target: RTMPPublishTarget, answerTimeout: Duration = .seconds(10)) {
        self.target = target
        self.answerTimeout = answerTimeout
    }

    /// Publishes `source` until it ends (never, when it loops) or `isCancelled` says to stop
    /// (checked before each message), then unpublishes and closes. `started` is called once the
    /// server took the stream. Returns the stream time sent, in milliseconds.
    /// - Throws: ``RTMPPublishError``; ``MediaError`` when a file cannot be read on.
    public func publish(_ source: LivePublishSource, clock: some Clock<Duration> = ContinuousClock(),
                        isCancelled: @escaping @Sendable () -> Bool = { false },
                        started: @Sendable () -> Void = {}) async throws -> Int64 {
        let target = target
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.milliseconds(answerTimeout.milliseconds))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: target.host, port: target.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw RTMPPublishError.cannotConnect(target.redacted, reason: "\(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            let session = Locked(RTMPClientSession(app: target.app, tcURL: target.tcURL, streamKey: target.key))
            let (writes, writer) = AsyncStream<[UInt8]>.makeStream()
            let (answers, answer) = AsyncStream<RTMPPublishError?>.makeStream()
            // Bytes leave in the order the session made them: each is queued under its lock.
            func queue(_ events: [RTMPClientEvent]) {
                for event in events {
                    switch event {
                    case let .send(bytes): writer.yield(bytes)
                    case .publishStarted: answer.yield(nil)
                    case let .refused(code, description): answer.yield(.refused(target.redacted, code: code, description: description))
                    }
                }
            }
            // The first failure of the reading or writing loop, which the pacing loop checks.
            let failure = Locked<RTMPPublishError?>(nil)
            func fail(_ error: RTMPPublishError) {
                failure.withLock { if $0 == nil { $0 = error } }
                answer.yield(error)
            }
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for await bytes in writes { try await outbound.write(ByteBuffer(bytes: bytes)) }
                    } catch {
                        fail(.lost(target.redacted, reason: "\(error)"))
                    }
                }
                group.addTask {
                    do {
                        for try await buffer in inbound {
                            let bytes = Array(buffer.readableBytesView)
                            try session.withLock { session throws(RTMPError) in queue(try session.receive(bytes)) }
                        }
                        if !Task.isCancelled { fail(.lost(target.redacted, reason: "the server closed the connection")) }
                    } catch {
                        if !Task.isCancelled { fail(.lost(target.redacted, reason: "\(error)")) }
                    }
                }
                defer { group.cancelAll() }
                let timer = Task {
                    try await Task.sleep(for: answerTimeout)
                    answer.yield(.cannotConnect(target.redacted, reason: "no answer to publish within \(answerTimeout)"))
                }
                session.withLock { writer.yield($0.start()) }
                var waiting = answers.makeAsyncIterator()
                let answered = await waiting.next()
                timer.cancel()
                if let refusal = answered ?? .lost(target.redacted, reason: "no answer") { throw refusal }
                started()

                let begin = clock.now
                try session.withLock { session throws(RTMPError) in writer.yield(try session.metadata(source.metadata)) }
                var sent: Int64 = 0
                while !isCancelled(), let message = try source.next() {
                    if let failed = failure.withLock({ $0 }) { throw failed }
                    sent = max(sent, Int64(message.timestamp))
                    try await clock.sleep(until: begin.advanced(by: .milliseconds(Int64(message.timestamp))), tolerance: nil)
                    try session.withLock { session throws(RTMPError) in writer.yield(try session.media(message)) }
                }
                if !isCancelled() {
                    // The last frames last until the stream's end: leave then, as a camera would.
                    try await clock.sleep(until: begin.advanced(by: .milliseconds(source.end)), tolerance: nil)
                    sent = source.end
                }
                if let failed = failure.withLock({ $0 }) { throw failed }
                session.withLock { writer.yield($0.unpublish()) }
                writer.finish()
                // The writing loop ends once the unpublish is out (the reading one only when cancelled).
                try await group.next()
                return sent
            }
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
