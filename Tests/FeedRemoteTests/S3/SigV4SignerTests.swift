import Crypto
import FeedCore
import FeedTestSupport
import Foundation
import Testing
@testable import FeedRemote

/// The signer against AWS's published SigV4 test suite (S3/Vectors/aws-sigv4-testsuite.json),
/// the S3 documentation's worked examples (aws-s3-examples.json), and botocore signing the same
/// requests (Scripts/botocore_sign.py). The vectors' sources are named in their files.
@Suite("SigV4Signer")
struct SigV4SignerTests {
    static func vectors(_ name: String) throws -> [String: Any] {
        let url = RepositoryFiles.root.appendingPathComponent("Tests/FeedRemoteTests/S3/Vectors/\(name)")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// `%XX` decoded (the raw requests write a few names that way).
    static func decoded(_ text: Substring) -> String { String(text).removingPercentEncoding ?? String(text) }

    /// A raw request of the suite (`METHOD PATH?QUERY HTTP/1.1`, headers, a blank line, a body).
    static func request(_ raw: String) throws -> (request: SigV4Request, body: [UInt8]) {
        let parts = raw.components(separatedBy: "\n\n")
        let lines = parts[0].components(separatedBy: "\n")
        let first = lines[0].split(separator: " ")
        let target = first[1...].dropLast().joined(separator: " ")  // a path may hold a space (get-space)
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [(name: String, value: String)] = []
        if path.count == 2, !path[1].isEmpty {
            for item in path[1].split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((decoded(pair[0]), pair.count > 1 ? decoded(pair[1]) : ""))
            }
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            if line.first == " " || line.first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += "\n" + line  // a folded value (get-header-value-multiline)
                continue
            }
            let pair = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            headers.append((String(pair[0]), pair.count > 1 ? String(pair[1]) : ""))
        }
        let body = Array(parts.dropFirst().joined(separator: "\n\n").utf8)
        let hash = SHA256.hash(data: body).hex
        return (SigV4Request(method: String(first[0]), path: decoded(path[0]), query: query, headers: headers, payloadSHA256: hash), body)
    }

    @Test("AWS's SigV4 test suite: canonical request, string to sign and Authorization, every case S3's path rule applies to")
    func testSuite() throws {
        let suite = try Self.vectors("aws-sigv4-testsuite.json")
        let credentials = try #require(suite["credentials"] as? [String: String])
        let signer = SigV4Signer(credentials: S3Credentials(accessKey: credentials["accessKeyId"]!, secretKey: credentials["secretAccessKey"]!),
                                 region: suite["region"] as! String, service: suite["service"] as! String)
        let cases = try #require(suite["cases"] as? [[String: Any]])
        var checked = 0
        for item in cases where item["s3Applicable"] as? Bool == true {
            let name = item["name"] as! String
            // botocore's copy carries X-Amz-Date in the request; aws-c-auth's adds it when signing.
            var raw = item["request"] as! String
            if !raw.contains("X-Amz-Date") { raw = raw.replacingOccurrences(of: "\n\n", with: "\nX-Amz-Date:\(suite["date"] as! String)\n\n") }
            if !raw.contains("X-Amz-Date") { raw += (raw.hasSuffix("\n") ? "" : "\n") + "X-Amz-Date:\(suite["date"] as! String)" }
            var (request, _) = try Self.request(raw)
            if let token = item["sessionToken"] as? String, item["signSessionToken"] as? Bool != false,
               !request.headers.contains(where: { $0.name.lowercased() == "x-amz-security-token" }) {
                request.headers.append(("X-Amz-Security-Token", token))
            }
            #expect(request.canonicalRequest == item["canonicalRequest"] as? String, "\(name)")
            #expect(request.stringToSign(timestamp: suite["date"] as! String, scope: signer.scope(timestamp: suite["date"] as! String))
                == item["stringToSign"] as? String, "\(name)")
            if let authorization = item["authorization"] as? String {
                #expect(signer.authorization(of: request, timestamp: suite["date"] as! String) == authorization, "\(name)")
            }
            checked += 1
        }
        #expect(checked == 35, "the suite's S3-applicable cases were read: \(checked)")
    }

    @Test("the S3 documentation's worked examples: GET with a range, PUT, ?lifecycle, a listing, and the presigned URL exactly")
    func s3Examples() throws {
        let examples = try Self.vectors("aws-s3-examples.json")
        let credentials = try #require(examples["credentials"] as? [String: String])
        let signer = SigV4Signer(credentials: S3Credentials(accessKey: credentials["accessKeyId"]!, secretKey: credentials["secretAccessKey"]!),
                                 region: examples["region"] as! String)
        let date = examples["date"] as! String
        let cases = try #require(examples["cases"] as? [[String: Any]])
        for item in cases {
            let name = item["name"] as! String
            let headers = (item["headers"] as! [[String]]).map { (name: $0[0], value: $0[1]) }
            let query = ((item["query"] as? [[String]]) ?? []).map { (name: $0[0], value: $0.count > 1 ? $0[1] : "") }
            if let url = item["url"] as? String {
                let request = SigV4Request(method: item["method"] as! String, path: item["path"] as! String, headers: headers, payloadSHA256: "UNSIGNED-PAYLOAD")
                let parsed = try #require(ISO8601DateFormatter().date(from: "2013-05-24T00:00:00Z"))
                let query = signer.presignedQuery(request, at: parsed, expires: item["expiresSeconds"] as! Int)
                #expect("https://\(item["host"] as! String)\(request.encodedPath)?\(query)" == url, "\(name)")
                continue
            }
            let payload = headers.first { $0.name == "x-amz-content-sha256" }!.value
            let request = SigV4Request(method: item["method"] as! String, path: item["path"] as! String, query: query, headers: headers, payloadSHA256: payload)
            #expect(request.canonicalRequest == item["canonicalRequest"] as? String, "\(name)")
            #expect(request.signedHeaders == item["signedHeaders"] as? String, "\(name)")
            #expect(signer.signature(of: request, timestamp: date) == item["signature"] as? String, "\(name)")
        }
    }

    @Test("the same requests signed by botocore: keys with spaces, + and UTF-8, listing queries, multipart, a session token, presigned URLs")
    func botocore() async throws {
        // The store's venv has boto3 (scripts/with-s3.sh); without a store, whatever python3 is first.
        let python = TestObjectStore.current?.python ?? "python3"
        let folder = try ScratchFolder()
        guard try await Self.python(python, ["-c", "import botocore"], in: folder).status == 0 else {
            let probe = try await Self.python(python, ["-c", "import botocore"], in: folder)
            #expect(!TestObjectStore.isRequired, "botocore is not importable by \(python): \(probe.status) \(probe.stderr)")
            return
        }
        let date = try #require(ISO8601DateFormatter().date(from: "2026-11-28T21:00:00Z"))
        let plain = SigV4Signer(credentials: S3Credentials(accessKey: "AKIDFEED", secretKey: "feed/secret+key"), region: "eu-west-3")
        let token = SigV4Signer(credentials: S3Credentials(accessKey: "ASIAFEED", secretKey: "s", sessionToken: "tok/en+=="), region: "us-east-1")
        let empty = SigV4Request.emptyPayloadSHA256, body = SHA256.hex(Array("part bytes".utf8))
        let requests: [(SigV4Signer, SigV4Request, presign: Int?)] = [
            (plain, .init(method: "GET", path: "/media/", query: [("list-type", "2"), ("prefix", "a b/ü+c"), ("continuation-token", "1/2=3")],
                          headers: [("host", "s3.eu-west-3.amazonaws.com")], payloadSHA256: empty), nil),
            (plain, .init(method: "PUT", path: "/media/rolls/team one/ü €+1.mp4", headers: [("host", "127.0.0.1:8333"), ("content-type", "video/mp4")],
                          payloadSHA256: body), nil),
            (plain, .init(method: "PUT", path: "/media/k", query: [("partNumber", "7"), ("uploadId", "2~abc/def+g==")], headers: [("host", "h:9000")],
                          payloadSHA256: body), nil),
            (plain, .init(method: "POST", path: "/media/k", query: [("uploads", "")], headers: [("host", "h"), ("range", "bytes=0-9")], payloadSHA256: empty), nil),
            (plain, .init(method: "PUT", path: "/media/copy", headers: [("host", "h"), ("x-amz-copy-source", "/media/a%20b.mp4")], payloadSHA256: empty), nil),
            (token, .init(method: "GET", path: "/media/a", headers: [("host", "media.s3.amazonaws.com")], payloadSHA256: empty), nil),
            (plain, .init(method: "GET", path: "/media/rolls/ü €+1.mp4", headers: [("host", "127.0.0.1:8333")], payloadSHA256: "UNSIGNED-PAYLOAD"), 900),
            (token, .init(method: "GET", path: "/a b", headers: [("host", "b.s3.amazonaws.com")], payloadSHA256: "UNSIGNED-PAYLOAD"), 604_800),
        ]
        var input: [[String: Any]] = []
        for (signer, request, presign) in requests {
            let host = request.headers.first { $0.name == "host" }!.value
            var item: [String: Any] = [
                "method": request.method, "url": "http://\(host)\(request.path)", "query": request.query.map { [$0.name, $0.value] },
                "headers": Dictionary(uniqueKeysWithValues: request.headers.filter { $0.name != "host" }.map { ($0.name, $0.value) }),
                "payloadSHA256": request.payloadSHA256, "date": SigV4Signer.timestamp(date), "region": signer.region,
                "accessKey": signer.credentials.accessKey, "secretKey": signer.credentials.secretKey,
            ]
            if let token = signer.credentials.sessionToken { item["sessionToken"] = token }
            if let presign { item["presignExpires"] = presign }
            input.append(item)
        }
        try JSONSerialization.data(withJSONObject: input).write(to: folder.url("in.json"))
        let script = RepositoryFiles.root.appendingPathComponent("Tests/FeedRemoteTests/Scripts/botocore_sign.py").path
        let run = try await Self.python(python, [script], stdin: folder.url("in.json"), in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(answers.count == requests.count)
        for ((signer, request, presign), answer) in zip(requests, answers) {
            if let presign {
                let host = request.headers.first { $0.name == "host" }!.value
                let ours = "http://\(host)\(request.encodedPath)?\(signer.presignedQuery(request, at: date, expires: presign))"
                // botocore writes the query in its own order; the signature covers the sorted one.
                let theirs = try #require(answer["url"] as? String)
                #expect(Set(ours.split(separator: "?")[1].split(separator: "&")) == Set(theirs.split(separator: "?")[1].split(separator: "&")), "\(request.path)")
                #expect(ours.split(separator: "?")[0] == theirs.split(separator: "?")[0])
            } else {
                let sent = signer.sign(request, at: date)
                #expect(sent.first { $0.name == "Authorization" }?.value == answer["authorization"] as? String,
                        "\(request.method) \(request.path): ours\n\(request.canonicalRequest)\nbotocore's\n\(answer["canonicalRequest"] ?? "")")
            }
        }
    }

    /// Runs `python arguments…` with `stdin`, its output in `folder`.
    static func python(_ python: String, _ arguments: [String], stdin: URL? = nil, in folder: ScratchFolder) async throws -> (status: Int32, stdout: String, stderr: String) {
        let out = folder.url("stdout"), err = folder.url("stderr")
        let child = try await ChildProcess.run {
            try Data().write(to: out)
            try Data().write(to: err)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [python] + arguments
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            if let stdin { process.standardInput = try FileHandle(forReadingFrom: stdin) }
            return process
        }
        let status = await child.exitStatus()
        return (status, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }
}
