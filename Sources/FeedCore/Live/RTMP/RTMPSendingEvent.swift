/// A session's event that may be bytes to send (``RTMPServerEvent``, ``RTMPClientEvent``): what
/// lets both sessions merge what they send into one write the same way.
protocol RTMPSendingEvent {
    /// The event that sends `bytes`.
    static func send(_ bytes: [UInt8]) -> Self
    /// The bytes, when this event sends some.
    var sentBytes: [UInt8]? { get }
}

extension RTMPServerEvent: RTMPSendingEvent {
    var sentBytes: [UInt8]? { if case let .send(bytes) = self { bytes } else { nil } }
}

extension RTMPClientEvent: RTMPSendingEvent {
    var sentBytes: [UInt8]? { if case let .send(bytes) = self { bytes } else { nil } }
}

extension Array where Element: RTMPSendingEvent {
    /// Appends `bytes` to send: onto the last event when it sends too, so the caller writes once.
    mutating func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if let last = last?.sentBytes {
            self[endIndex - 1] = .send(last + bytes)
        } else {
            append(.send(bytes))
        }
    }

    /// `message`, written by `writer`, to send (control and command messages are far under the
    /// writer's limits: it does not throw for them).
    mutating func send(_ message: RTMPMessage, through writer: inout RTMPChunkWriter) {
        send((try? writer.write(message)) ?? [])
    }
}
