import Hummingbird

/// `GET /openapi.yaml` and `GET /openapi.json`: the API's contract (the repository's
/// `openapi.yaml`, embedded by scripts/openapi.sh), for clients and code generators.
struct OpenAPIRoutes {
    /// The two bodies, made once.
    static let yaml = ByteBuffer(string: OpenAPIDocument.yaml + "\n")
    static let json = ByteBuffer(string: OpenAPIDocument.json)

    func register(on router: RouteRecorder) {
        router.get("openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: Self.yaml))
        }
        router.get("openapi.json") { _, _ in JSONBytes.response(Self.json) }
    }
}
