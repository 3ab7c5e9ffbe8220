import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Upload-Metadata` as tus writes it (`filename ZmlsZQ==,title QmVhY2g=`). The generated
/// code encodes header values as URI components (`filename%20ZmlsZQ%3D%3D%2C…`), which a tus
/// server reads as one key with no value; this puts the spaces, commas and `=` back. tus
/// metadata never holds `%` itself (keys are ASCII without spaces or commas; values are base64).
struct TusMetadataMiddleware: ClientMiddleware {
    static let field = HTTPField.Name("Upload-Metadata")!

    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let value = request.headerFields[Self.field], let decoded = value.removingPercentEncoding {
            request.headerFields[Self.field] = decoded
        }
        return try await next(request, body, baseURL)
    }
}
