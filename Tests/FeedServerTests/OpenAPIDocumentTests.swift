import Foundation
import FeedCore
import FeedTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FeedServer

/// `openapi.yaml` is the contract: the server embeds it unchanged, and the routes it registers
/// are exactly the document's paths and methods.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    /// The document's (path, method) pairs, HEAD left out (HEAD answers wherever GET does).
    static func documented() throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any]
        let paths = try #require(object?["paths"] as? [String: [String: Any]])
        var pairs: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where ["get", "put", "post", "delete", "options", "patch"].contains(method) {
                pairs.insert("\(method.uppercased()) \(path)")
            }
        }
        return pairs
    }

    @Test("the embedded copy is openapi.yaml byte for byte, and its JSON is the YAML's (scripts/openapi.sh --check)")
    func embedded() async throws {
        let file = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        #expect(OpenAPIDocument.yaml + "\n" == file, "run scripts/openapi.sh")
        let check = Process()
        check.executableURL = RepositoryFiles.root.appendingPathComponent("scripts/openapi.sh")
        check.arguments = ["--check"]
        let child = try await ChildProcess.run(check)
        #expect(child.process.terminationStatus == 0, "scripts/openapi.sh --check: the generated JSON is not the YAML's")
    }

    @Test("every route the server registers is in the document, and every path and method of the document is a route")
    func routesMatch() throws {
        let table = RouteTable()
        let fixture = try ServerFixture()
        _ = fixture.server.router(table: table)
        let registered = Set(table.routes.filter { $0.method != .head }.map { "\($0.method.rawValue) \($0.path)" })
        let documented = try Self.documented()
        #expect(registered.subtracting(documented).isEmpty, "registered, not documented: \(registered.subtracting(documented).sorted())")
        #expect(documented.subtracting(registered).isEmpty, "documented, not registered: \(documented.subtracting(registered).sorted())")
    }

    @Test("GET /openapi.yaml and /openapi.json serve it")
    func served() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let yaml = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(yaml.status == .ok && yaml.headers[.contentType] == "application/yaml; charset=utf-8")
            #expect(String(buffer: yaml.body).hasPrefix("openapi: 3.1.0\n"))
            let json = try await client.execute(uri: "/openapi.json", method: .get)
            let object = try JSONSerialization.jsonObject(with: Data(buffer: json.body)) as? [String: Any]
            #expect(object?["openapi"] as? String == "3.1.0")
        }
    }

    /// Every security requirement a document states: its own and each operation's.
    static func requirements(_ json: [String: Any]) -> [[[String: Any]]] {
        var all = [json["security"] as? [[String: Any]] ?? [[:]]]
        for case let operations as [String: Any] in (json["paths"] as? [String: Any] ?? [:]).values {
            for case let operation as [String: Any] in operations.values {
                if let security = operation["security"] as? [[String: Any]] { all.append(security) }
            }
        }
        return all
    }

    @Test("an open server's document asks for no credential (YAML and JSON alike); one with a key names the bearer scheme as written")
    func saysWhatThisServerAsks() async throws {
        let open = try ServerFixture()
        try await open.test { client in
            let yaml = String(buffer: try await client.execute(uri: "/openapi.yaml", method: .get).body)
            #expect(!yaml.contains("- bearer: []") && !yaml.contains("- signedLink: []") && yaml.contains("\nsecurity: []\n"))
            #expect(yaml.components(separatedBy: "security: []").count - 1 == OpenAPIDocument.yaml.components(separatedBy: "security:").count - 1,
                    "every security block, emptied")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: try await client.execute(uri: "/openapi.json", method: .get).body)) as? [String: Any])
            let requirements = Self.requirements(json)
            #expect(requirements.count > 10 && requirements.allSatisfy(\.isEmpty), "\(requirements.filter { !$0.isEmpty }.prefix(3))")
            #expect((json["paths"] as? [String: Any])?.count == (try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
                .flatMap { ($0["paths"] as? [String: Any])?.count }, "nothing else changes")
        }
        let keyed = try await AccessFixture()
        try await keyed.server.test { client in
            let yaml = try await client.execute(uri: "/openapi.yaml", method: .get, headers: AccessFixture.bearer(AccessFixture.adminToken))
            #expect(String(buffer: yaml.body) == OpenAPIDocument.yaml + "\n")
        }
    }
}
