import AsyncHTTPClient
import Crypto
import FeedCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// feed's own client for one bucket of an S3-compatible store: the few calls media needs
/// (objects, ranges, listings, multipart uploads, presigned URLs), signed with Signature
/// Version 4, over async-http-client. A request the store answers with 500 or 503 (`SlowDown`),
/// or that a connection error cuts, is sent again after a growing, jittered pause, up to
/// ``S3Configuration/attempts``; every other error answer is thrown at once as an ``S3Error``
/// naming the object.
///
/// Its connections are the process's (``transport(timeout:)``): a client needs no shutdown.
public final class S3Client: Sendable {
    /// How the store is reached.
    public let configuration: S3Configuration
    /// The bucket every call addresses.
    public let bucket: String
    let http: HTTPClient
    let signer: SigV4Signer
    let now: @Sendable () -> Date

    /// A client for `bucket`; `now` is the clock requests are dated by.
    public init(configuration: S3Configuration, bucket: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.bucket = bucket
        self.now = now
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region)
        http = Self.transport(timeout: configuration.timeout)
    }

    /// One HTTP client per read timeout for the whole process, like `HTTPClient.shared`: its
    /// connections are pooled across stores and it is never shut down, so no store's lifetime
    /// (or a test's early return) can leave a client to be torn down with work in flight.
    static func transport(timeout: Duration) -> HTTPClient {
        transports.withLock { clients in
            if let client = clients[timeout] { return client }
            var settings = HTTPClient.Configuration()
            settings.redirectConfiguration = .disallow
            settings.timeout = .init(connect: .seconds(10), read: .init(timeout))
            settings.decompression = .disabled
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
            clients[timeout] = client
            return client
        }
    }

    private static let transports = Locked<[Duration: HTTPClient]>([:])

    /// `s3://bucket/key`, as messages name an object.
    public func target(_ key: String?) -> String { key.map { "s3://\(bucket)/\($0)" } ?? "s3://\(bucket)" }

    // MARK: Requests

    /// One call: what is signed and sent.
    struct Call {
        var method: HTTPMethod
        /// The object's key; nil for the bucket itself.
        var key: String?
        var query: [(name: String, value: String)] = []
        /// Signed headers besides host and the x-amz- ones the signer adds.
        var headers: [(name: String, value: String)] = []
        var body: ByteBuffer?
        /// What the call does, for messages: `upload`, `read`, `list`, …
        var operation: String
    }

    /// The host header and URL path of `key` (path style: `/bucket/key`).
    func address(_ key: String?) -> (host: String, path: String, base: String) {
        let endpoint = configuration.endpoint
        let scheme = endpoint.scheme?.lowercased() ?? "https"
        var host = endpoint.host ?? ""
        if host.contains(":") { host = "[\(host)]" }  // an IPv6 literal
        if !configuration.pathStyle { host = "\(bucket).\(host)" }
        if let port = endpoint.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) { host += ":\(port)" }
        var path = configuration.pathStyle ? "/\(bucket)" : ""
        if let key { path += "/\(key)" }
        if path.isEmpty { path = "/" }
        return (host, path, "\(scheme)://\(host)")
    }

    /// Sends `call`, retrying what can be retried, and returns the store's 2xx answer (its body
    /// not yet read); any other answer is thrown as an ``S3Error``. `accept` lets a caller take a
    /// status such as 404 as an answer.
    func send(_ call: Call, accept: Set<Int> = []) async throws(S3Error) -> HTTPClientResponse {
        let target = target(call.key)
        var attempt = 0
        var last = ""
        while true {
            attempt += 1
            do {
                let response = try await once(call)
                let code = Int(response.status.code)
                if (200..<300).contains(code) || accept.contains(code) { return response }
                let body = (try? await response.body.collect(upTo: 64 << 10)).map { Array($0.readableBytesView) } ?? []
                let answer = S3XML.parse(body)
                let s3Code = answer?["Code"] ?? "", message = answer?["Message"] ?? ""
                if [500, 502, 503, 504].contains(code) || s3Code == "SlowDown" || s3Code == "RequestTimeout" || s3Code == "InternalError" {
                    last = "HTTP \(code)\(s3Code.isEmpty ? "" : " \(s3Code)")"
                    guard attempt < configuration.attempts else { throw S3Error.busy(target: target, operation: call.operation, attempts: attempt, last: last) }
                } else {
                    throw mapped(code: code, s3Code: s3Code, message: message, call: call)
                }
            } catch let error as S3Error {
                throw error
            } catch let error as HTTPClientError where error == .readTimeout || error == .deadlineExceeded {
                throw .timedOut(target: target, operation: call.operation, seconds: Int(configuration.timeout.components.seconds))
            } catch is CancellationError {
                throw .status(target: target, operation: call.operation, code: 0, s3Code: "", message: "cancelled")
            } catch {
                last = NetworkFailure.reason(error)
                // No connection at all: async-http-client already kept trying for its connect
                // timeout (10 s), so trying again would only multiply the wait.
                if error is NIOConnectionError || (error as? HTTPClientError) == .connectTimeout
                    || (error as? IOError)?.errnoCode == ECONNREFUSED {
                    throw .unreachable(endpoint: configuration.endpoint.absoluteString, reason: last)
                }
                guard attempt < configuration.attempts else {
                    throw .busy(target: target, operation: call.operation, attempts: attempt, last: last)
                }
            }
            // 0.1, 0.2, 0.4, 0.8 s … (at most 5 s), each between half and all of it.
            let pause = min(0.1 * Double(1 << min(attempt - 1, 10)), 5) * Double.random(in: 0.5...1)
            do { try await Task.sleep(for: .seconds(pause)) } catch {
                throw .status(target: target, operation: call.operation, code: 0, s3Code: "", message: "cancelled")
            }
        }
    }

    /// One attempt: signs `call` now and executes it.
    private func once(_ call: Call) async throws -> HTTPClientResponse {
        let (host, path, base) = address(call.key)
        let payload: String
        if let body = call.body {
            payload = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }.hex
        } else {
            payload = SigV4Request.emptyPayloadSHA256
        }
        let request = SigV4Request(method: call.method.rawValue, path: path, query: call.query,
                                   headers: [("host", host)] + call.headers, payloadSHA256: payload)
        let query = request.encodedQuery
        var sent = HTTPClientRequest(url: base + request.encodedPath + (query.isEmpty ? "" : "?\(query)"))
        sent.method = call.method
        for (name, value) in signer.sign(request, at: now()) where name.lowercased() != "host" {
            sent.headers.add(name: name, value: value)
        }
        sent.headers.add(name: "User-Agent", value: "feed/0.1")
        if let body = call.body {
            sent.body = .bytes(body)
        } else if call.method == .PUT || call.method == .POST {
            sent.headers.add(name: "Content-Length", value: "0")
        }
        return try await http.execute(sent, timeout: .seconds(3600))
    }

    /// The error an answer means.
    private func mapped(code: Int, s3Code: String, message: String, call: Call) -> S3Error {
        let target = target(call.key)
        switch s3Code {
        case "InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken", "ExpiredToken":
            return .denied(target: target, code: s3Code, accessKey: configuration.credentials.accessKey)
        case "NoSuchBucket":
            return .noSuchBucket(bucket: bucket, endpoint: configuration.endpoint.absoluteString)
        case "NoSuchKey":
            return .noSuchKey(target: target)
        default:
            // A HEAD's error has no body: its status is all there is.
            if code == 404, call.method == .HEAD { return .noSuchKey(target: target) }
            if code == 403 { return .denied(target: target, code: s3Code.isEmpty ? "AccessDenied" : s3Code, accessKey: configuration.credentials.accessKey) }
            return .status(target: target, operation: call.operation, code: code, s3Code: s3Code, message: message)
        }
    }

    /// Reads an answer's XML body (at most 16 MiB), or throws naming `call`.
    func xml(_ response: HTTPClientResponse, _ call: Call) async throws(S3Error) -> S3XML {
        let body: ByteBuffer
        do { body = try await response.body.collect(upTo: 16 << 20) } catch {
            throw .invalidResponse(target: target(call.key), operation: call.operation, reason: "the body could not be read: \(NetworkFailure.reason(error))")
        }
        guard let document = S3XML.parse(Array(body.readableBytesView)) else {
            throw .invalidResponse(target: target(call.key), operation: call.operation, reason: "not XML")
        }
        // CompleteMultipartUpload and CopyObject can answer 200 and fail in the body.
        if document.name == "Error" {
            let s3Code = document["Code"] ?? ""
            if ["SlowDown", "InternalError", "RequestTimeout"].contains(s3Code) {
                throw .busy(target: target(call.key), operation: call.operation, attempts: 1, last: s3Code)
            }
            throw mapped(code: 200, s3Code: s3Code, message: document["Message"] ?? "", call: call)
        }
        return document
    }
}
