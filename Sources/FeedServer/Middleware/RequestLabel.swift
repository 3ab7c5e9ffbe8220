import Hummingbird

extension Request {
    /// The request as an error's `detail` names it, `METHOD /path`; a HEAD as the GET it
    /// mirrors, since its `Content-Length` must be the GET's (RFC 9110 §9.3.2) and the detail is
    /// part of that body.
    var label: String {
        "\(method == .head ? "GET" : method.rawValue) \(uri.path)"
    }
}
