import NIOCore

/// The connection's bytes as they cross the socket, for what the HTTP parser and encoder cannot
/// say. Nearest the socket, below NIO's request decoder and response encoder:
/// - inbound, it keeps the start of the line being received and of the connection's first line,
///   so a head the parser refuses can be told apart: a request line over the size limit (414,
///   not 431), a first line that is not `METHOD SP target` at all (400, not 501);
/// - outbound, a response head the encoder wrote as `HTTP/1.0` (so that it frames a 1.0 client's
///   body as 1.0 does: no chunks, the end at the close) goes out as `HTTP/1.1`, the version this
///   server speaks, as RFC 9112 §2.3 asks of a server answering 1.0.
///
/// ``MalformedRequestHandler`` and ``HTTP10Handler`` read and set its state, on the same event
/// loop, within the same read or write.
final class WireHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Bytes of a line's start kept.
    static let kept = 48

    /// The line being received (after the last LF): its first bytes and its length so far.
    private(set) var line: (start: [UInt8], length: Int) = ([], 0)
    /// The last line that ended in a read after it was carried over from an earlier one (a long
    /// line: one read holds the rest of it), until ``forgetLongLine()``.
    private(set) var longLine: (start: [UInt8], length: Int)?
    /// The start of the connection's first line.
    private(set) var first: [UInt8] = []
    private var firstDone = false
    /// Set just before a response head written as `HTTP/1.0` goes down: the next buffer is it.
    var restampNext = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { bytes in
            if !firstDone {
                let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
                first.append(contentsOf: bytes[..<end].prefix(Self.kept - first.count))
                firstDone = end < bytes.count || first.count >= Self.kept
            }
            guard let firstLF = bytes.firstIndex(of: 0x0A), let lastLF = bytes.lastIndex(of: 0x0A) else {
                if line.start.count < Self.kept { line.start.append(contentsOf: bytes.prefix(Self.kept - line.start.count)) }
                line.length += bytes.count
                return
            }
            if line.length > 0 {
                var carried = line
                if carried.start.count < Self.kept { carried.start.append(contentsOf: bytes[..<firstLF].prefix(Self.kept - carried.start.count)) }
                carried.length += firstLF
                longLine = carried
            }
            line = (Array(bytes[(lastLF + 1)...].prefix(Self.kept)), bytes.count - lastLF - 1)
        }
        context.fireChannelRead(data)
    }

    /// Forgets the long line: a head was read whole after it.
    func forgetLongLine() { longLine = nil }

    /// Whether a head the parser found too large is so for its request line: the line being
    /// received, or the long one that ended last, is a request line over `limit` bytes.
    func requestLineOverflows(limit: Int = 16 << 10) -> Bool {
        [Optional(line), longLine].contains { candidate in
            guard let candidate else { return false }
            return candidate.length > limit && Self.looksLikeRequestLine(candidate.start)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard restampNext, case var .byteBuffer(buffer) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        restampNext = false
        if buffer.readableBytesView.starts(with: "HTTP/1.0 ".utf8) {
            buffer.setBytes("HTTP/1.1 ".utf8, at: buffer.readerIndex)
        }
        context.write(wrapOutboundOut(.byteBuffer(buffer)), promise: promise)
    }

    /// Whether `start` (a line's first bytes) begins as a request line does: a method token
    /// (RFC 9110 §5.6.2), a space, and a target: origin form (`/…`), `*`, or absolute (`…://`).
    static func looksLikeRequestLine(_ start: [UInt8]) -> Bool {
        guard let space = start.firstIndex(of: 0x20), space > 0, space + 1 < start.count else { return false }
        let tchar = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        guard start[..<space].allSatisfy(tchar.contains) else { return false }
        let target = start[(space + 1)...].prefix { $0 != 0x20 }
        return target.first == UInt8(ascii: "/") || target.first == UInt8(ascii: "*")
            || String(decoding: target, as: UTF8.self).contains("://")
    }
}
