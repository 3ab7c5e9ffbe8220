import Hummingbird

extension Response {
    /// This response as the answer to a HEAD: its status and headers, and no body. For an event
    /// stream's route, which registers its HEAD with this: Hummingbird's own HEAD answers a body
    /// of unknown length (chunked) with `Content-Length: 0`, saying the GET's body is empty. Here
    /// the head keeps no length, as its GET's has none; the stream itself never starts.
    func headOfStream() -> Response {
        guard body.contentLength == nil else { return createHeadResponse() }
        return Response(status: status, headers: headers, body: ResponseBody { writer in try await writer.finish(nil) })
    }
}
