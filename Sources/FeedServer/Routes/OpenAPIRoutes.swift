import Foundation
import Hummingbird

/// `GET /openapi.yaml` and `GET /openapi.json`: the API's contract (the repository's
/// `openapi.yaml`, embedded by scripts/openapi.sh), for clients and code generators. The
/// document served says what this server asks for: an open server's (loopback, no key, no
/// token) requires no credential of any operation, so a generated client or a contract checker
/// is not told to send a bearer token nobody needs.
struct OpenAPIRoutes {
    /// Whether the server is open (``AccessControl/isOpen``).
    let open: Bool

    /// The two bodies of a server that asks for credentials: the document as written.
    static let yaml = ByteBuffer(string: OpenAPIDocument.yaml + "\n")
    static let json = ByteBuffer(string: OpenAPIDocument.json)
    /// The two bodies of an open server: every `security` requirement emptied.
    static let openYAML = ByteBuffer(string: openDocument(yaml: OpenAPIDocument.yaml) + "\n")
    static let openJSON = ByteBuffer(bytes: openDocument(json: Array(OpenAPIDocument.json.utf8)))

    func register(on router: RouteRecorder) {
        let yaml = open ? Self.openYAML : Self.yaml, json = open ? Self.openJSON : Self.json
        router.get("openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: yaml))
        }
        router.get("openapi.json") { _, _ in JSONBytes.response(json) }
    }

    /// `yaml` with each `security:` block (the document's and each operation's, a list of
    /// schemes) replaced by `security: []`: no credential needed.
    static func openDocument(yaml: String) -> String {
        yaml.replacing(#/(?m)^( *)security:\n(?:\1  - [A-Za-z]+: \[\]\n)+/#) { "\($0.output.1)security: []\n" }
    }

    /// `json` with the document's and every operation's `security` emptied.
    static func openDocument(json: [UInt8]) -> [UInt8] {
        guard var document = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else { return json }
        document["security"] = []
        if var paths = document["paths"] as? [String: Any] {
            for (path, item) in paths {
                guard var operations = item as? [String: Any] else { continue }
                for (method, operation) in operations {
                    guard var fields = operation as? [String: Any], fields["security"] != nil else { continue }
                    fields["security"] = []
                    operations[method] = fields
                }
                paths[path] = operations
            }
            document["paths"] = paths
        }
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) else { return json }
        return Array(data)
    }
}
