import FeedCore
import Foundation
import Hummingbird

/// Small JSON helpers for responses the server builds by hand (fast, stable field order).
enum JSONBytes {
    /// Appends `text` as a JSON string literal.
    static func string(_ text: String, into out: inout [UInt8]) {
        // FeedCore's writer: the same bytes JSONEncoder gives (slashes unescaped), without one.
        JSONOutput.write(text, into: &out)
    }

    /// A 200 (or `status`) response with a JSON body.
    static func response(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        response(ByteBuffer(bytes: bytes), status: status, headers: headers)
    }

    /// A 200 (or `status`) response with a JSON body already in a buffer (shared, not copied).
    static func response(_ body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    /// A response with `value` encoded as JSON (sorted keys, no escaped slashes).
    static func response(encoding value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return response(Array(try encoder.encode(value)) + [0x0A], status: status, headers: headers)
    }
}
