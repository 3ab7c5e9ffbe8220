import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` at once with `100 Continue` (RFC 9110 §10.1.1), so a client
/// that waits for it before sending a body (curl and libcurl do for any body of 1 MB or more:
/// every tus `PATCH` chunk) sends it now instead of after its own timeout (a second per request
/// for curl). The request then goes on to the routes as usual; a route that refuses it still
/// answers with its own status once it has looked at the head.
///
/// It sits in the channel pipeline below Hummingbird's handler, on the connection's event loop.
/// Inbound only: responses do not pass through it (the 100 is written from here towards the
/// socket), so it adds nothing to the way out.
final class ContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data), Self.expectsContinue(request) {
            context.writeAndFlush(NIOAny(HTTPResponsePart.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }

    /// Whether `request` asks for `100 Continue` before its body (the only expectation there is;
    /// the token is case-insensitive).
    static func expectsContinue(_ request: HTTPRequest) -> Bool {
        guard let value = request.headerFields[.expect] else { return false }
        return value.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue"
    }
}
