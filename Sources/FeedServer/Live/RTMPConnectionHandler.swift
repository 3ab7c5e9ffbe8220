import FeedCore
import Foundation
import NIOCore

/// One publisher's TCP connection: bytes go through an ``RTMPServerSession``; a `publish` is
/// authorized by ``LiveIngest`` off the event loop (the catalog is asked), then accepted or
/// refused (`NetStream.Publish.BadName`, and the connection closed) before any media is kept;
/// accepted media goes to the stream's ``LiveChannel``. A codec other than H.264/AAC, or a
/// protocol violation, ends the connection with one line in the log and the reason in the row.
final class RTMPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let ingest: LiveIngest
    private var session = RTMPServerSession()
    /// The accepted publish, until it ends.
    private var publishing: (stream: LiveStream, channel: LiveChannel)?
    /// Whether authorization is under way (bytes that arrive meanwhile are held).
    private var authorizing = false
    private var held: [[UInt8]] = []
    private var done = false

    init(ingest: LiveIngest) { self.ingest = ingest }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard !done, let bytes = buffer.readBytes(length: buffer.readableBytes), !bytes.isEmpty else { return }
        if authorizing {
            held.append(bytes)
            return
        }
        receive(bytes, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done = true
        endPublish(error: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        close(context, reason: "\(error)")
    }

    private func receive(_ bytes: [UInt8], context: ChannelHandlerContext) {
        do {
            handle(try session.receive(bytes), context: context)
        } catch {
            close(context, reason: error.description)
        }
    }

    private func handle(_ events: [RTMPServerEvent], context: ChannelHandlerContext) {
        for event in events {
            guard !done else { return }
            switch event {
            case let .send(bytes):
                context.write(wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
            case let .publish(app, key):
                authorize(app: app, key: key, context: context)
            case .metadata:
                break
            case let .media(message):
                guard let (_, channel) = publishing else { continue }
                do {
                    try channel.append(type: message.kind == .audio ? 8 : 9, body: message.payload, timestamp: Int64(message.timestamp))
                } catch {
                    close(context, reason: error.description)
                }
            case .unpublished:
                endPublish(error: nil)
            case .closed:
                context.writeAndFlush(wrapOutboundOut(ByteBuffer()), promise: nil)
                close(context, reason: nil)
            }
        }
        context.flush()
    }

    /// Asks the catalog off the loop, then accepts or refuses on it; bytes that arrive
    /// meanwhile are taken afterwards, in order.
    private func authorize(app: String, key: String, context: ChannelHandlerContext) {
        authorizing = true
        let ingest = self.ingest
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.makeFutureWithTask { await ingest.begin(app: app, key: key) }.whenSuccess { outcome in
            let (handler, context) = bound.value
            handler.authorized(outcome, context: context)
        }
    }

    private func authorized(_ outcome: Result<(LiveStream, LiveChannel), LiveIngest.Refusal>, context: ChannelHandlerContext) {
        authorizing = false
        switch outcome {
        case let .success((stream, channel)):
            guard !done else {
                // The publisher went while its key was looked up.
                let ingest = self.ingest
                Task { await ingest.end(stream, channel: channel) }
                return
            }
            publishing = (stream, channel)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            channel.onDisconnect { [eventLoop = context.eventLoop] in
                eventLoop.execute { bound.value.close(promise: nil) }
            }
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: session.accept())), promise: nil)
            let pending = held
            held = []
            for bytes in pending where !done { receive(bytes, context: context) }
        case let .failure(refusal):
            ingest.log?("rtmp: publish refused: \(refusal.description)")
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: session.reject(description: refusal.description))), promise: nil)
            close(context, reason: nil)
        }
    }

    /// Ends the accepted publish, if any (the row back to idle, the channel's playlist ended).
    private func endPublish(error: String?) {
        guard let (stream, channel) = publishing else { return }
        publishing = nil
        let ingest = self.ingest
        Task { await ingest.end(stream, channel: channel, error: error) }
    }

    /// Closes the connection once what was written is flushed; `reason` (a refusal, a protocol
    /// violation) is logged and kept on the stream's row.
    private func close(_ context: ChannelHandlerContext, reason: String?) {
        guard !done else { return }
        done = true
        if let reason { ingest.log?("rtmp: \(reason)") }
        endPublish(error: reason)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer()), promise: nil)
        context.close(promise: nil)
    }
}
