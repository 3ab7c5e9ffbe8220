import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension S3Client {
    /// Stores `body` at `key` in one request, replacing what was there, and returns its entity tag.
    /// `metadata` becomes the object's `x-amz-meta-NAME` headers (names in lowercase).
    @discardableResult
    public func put(_ key: String, body: ByteBuffer, contentType: String? = nil, metadata: [String: String] = [:]) async throws(S3Error) -> String {
        var headers = contentType.map { [(name: "content-type", value: $0)] } ?? []
        headers += metadata.sorted { $0.key < $1.key }.map { (name: "x-amz-meta-\($0.key)", value: $0.value) }
        let call = Call(method: .PUT, key: key, headers: headers, body: body, operation: "upload")
        let response = try await send(call)
        _ = try? await response.body.collect(upTo: 64 << 10)
        return Self.unquoted(response.headers.first(name: "etag") ?? "")
    }

    /// The bytes of `key`, all or `range` (a `Range: bytes=` request answered 206), at most
    /// `limit` of them.
    public func get(_ key: String, range: Range<Int64>? = nil, limit: Int = 64 << 20) async throws(S3Error) -> ByteBuffer {
        var call = Call(method: .GET, key: key, operation: "read")
        if let range { call.headers.append(("range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")) }
        let response = try await send(call)
        do { return try await response.body.collect(upTo: limit) } catch {
            throw .invalidResponse(target: target(key), operation: "read", reason: "the body could not be read: \(NetworkFailure.reason(error))")
        }
    }

    /// The bytes of `key` (at most `limit`) and its `x-amz-meta-` metadata (names without the
    /// prefix); nil when there is no such object.
    public func getWithMetadata(_ key: String, limit: Int = 64 << 20) async throws(S3Error) -> (body: ByteBuffer, metadata: [String: String], lastModified: Date?)? {
        let response = try await send(Call(method: .GET, key: key, operation: "read"), accept: [404])
        let body: ByteBuffer
        do { body = try await response.body.collect(upTo: response.status == .notFound ? 64 << 10 : limit) } catch {
            throw .invalidResponse(target: target(key), operation: "read", reason: "the body could not be read: \(NetworkFailure.reason(error))")
        }
        guard response.status != .notFound else { return nil }
        return (body, Self.metadata(response.headers), response.headers.first(name: "last-modified").flatMap(Self.httpDate))
    }

    /// The `x-amz-meta-` headers, names lowercased and without the prefix.
    static func metadata(_ headers: HTTPHeaders) -> [String: String] {
        var metadata: [String: String] = [:]
        for header in headers where header.name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(header.name.lowercased().dropFirst(11))] = header.value
        }
        return metadata
    }

    /// Writes `key`'s bytes to `file` (created, or emptied first) as they arrive, never holding
    /// more than a chunk; false when there is no such object (nothing is written).
    public func download(_ key: String, to file: URL) async throws(S3Error) -> Bool {
        let response = try await send(Call(method: .GET, key: key, operation: "read"), accept: [404])
        guard response.status != .notFound else {
            _ = try? await response.body.collect(upTo: 64 << 10)
            return false
        }
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = FileHandle(forWritingAtPath: file.path) else {
            throw .invalidResponse(target: target(key), operation: "read", reason: "cannot write \(file.path)")
        }
        defer { try? handle.close() }
        do {
            for try await chunk in response.body { try chunk.withUnsafeReadableBytes { try handle.write(contentsOf: $0) } }
        } catch {
            throw .invalidResponse(target: target(key), operation: "read", reason: "the body could not be read or written to \(file.path): \(NetworkFailure.reason(error))")
        }
        return true
    }

    /// Whether `key` exists, and its size and entity tag; nil when it does not.
    public func head(_ key: String) async throws(S3Error) -> S3Object? {
        let response = try await send(Call(method: .HEAD, key: key, operation: "look up"), accept: [404])
        guard response.status != .notFound else { return nil }
        guard let size = response.headers.first(name: "content-length").flatMap(Int64.init) else {
            throw .invalidResponse(target: target(key), operation: "look up", reason: "no Content-Length")
        }
        return S3Object(key: key, size: size, etag: Self.unquoted(response.headers.first(name: "etag") ?? ""),
                        lastModified: response.headers.first(name: "last-modified").flatMap(Self.httpDate),
                        metadata: Self.metadata(response.headers))
    }

    /// Removes `key`; one already gone is fine.
    public func delete(_ key: String) async throws(S3Error) {
        let response = try await send(Call(method: .DELETE, key: key, operation: "remove"), accept: [404])
        _ = try? await response.body.collect(upTo: 64 << 10)
    }

    /// The most one CopyObject copies: 5 GiB.
    public static let maximumSingleCopy: Int64 = 5 << 30

    /// Copies `source` (a key of this bucket, `size` bytes when known) to `key` inside the store,
    /// no byte through this process: one CopyObject up to `singleLimit` (S3's 5 GiB), else a
    /// multipart upload of UploadPartCopy ranges of `partSize`.
    public func copy(_ source: String, to key: String, size: Int64? = nil, singleLimit: Int64 = maximumSingleCopy,
                     partSize: Int64 = 1 << 30) async throws(S3Error) {
        let from = "/\(bucket)/\(SigV4Encoding.encode(source, keepSlash: true))"
        guard let size, size > singleLimit else {
            let call = Call(method: .PUT, key: key, headers: [("x-amz-copy-source", from)], operation: "copy from \(target(source))")
            _ = try await xml(try await send(call), call)
            return
        }
        let id = try await createMultipartUpload(key)
        do {
            var parts: [S3MultipartUpload.Part] = [], start: Int64 = 0
            while start < size {
                let end = min(start + partSize, size), number = parts.count + 1
                let call = Call(method: .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", id)],
                                headers: [("x-amz-copy-source", from), ("x-amz-copy-source-range", "bytes=\(start)-\(end - 1)")],
                                operation: "copy part \(number) from \(target(source))")
                let answer = try await xml(try await send(call), call)
                parts.append(.init(number: number, etag: Self.unquoted(answer["ETag"] ?? ""), size: end - start))
                start = end
            }
            try await completeMultipartUpload(key, uploadID: id, parts: parts)
        } catch {
            try? await abortMultipartUpload(key, uploadID: id)
            throw error
        }
    }

    /// Every object whose key starts with `prefix`, in key order (all pages of ListObjectsV2).
    public func list(prefix: String) async throws(S3Error) -> [S3Object] {
        var objects: [S3Object] = []
        var token: String?
        repeat {
            var call = Call(method: .GET, key: nil, query: [("list-type", "2"), ("prefix", prefix)], operation: "list \(prefix)*")
            if let token { call.query.append(("continuation-token", token)) }
            let page = try await xml(try await send(call), call)
            for item in page.all("Contents") {
                guard let key = item["Key"], let size = item["Size"].flatMap(Int64.init) else {
                    throw .invalidResponse(target: target(nil), operation: call.operation, reason: "an entry without Key or Size")
                }
                objects.append(S3Object(key: key, size: size, etag: Self.unquoted(item["ETag"] ?? ""),
                                        lastModified: item["LastModified"].flatMap(Self.isoDate)))
            }
            token = page["IsTruncated"] == "true" ? page["NextContinuationToken"] : nil
        } while token != nil
        return objects
    }

    /// A URL anyone may `method` (GET, HEAD) `key` with for `expires` seconds from `date`.
    public func presignedURL(_ key: String, method: String = "GET", expires: Int, at date: Date? = nil) -> URL {
        let (host, path, base) = address(key)
        let request = SigV4Request(method: method, path: path, headers: [("host", host)], payloadSHA256: "UNSIGNED-PAYLOAD")
        let query = signer.presignedQuery(request, at: date ?? now(), expires: expires)
        return URL(string: base + request.encodedPath + "?" + query)!
    }

    // MARK: Answers' fields

    static func unquoted(_ etag: String) -> String {
        etag.count >= 2 && etag.hasPrefix("\"") && etag.hasSuffix("\"") ? String(etag.dropFirst().dropLast()) : etag
    }

    /// `2026-11-28T21:00:00.000Z`, as listings write times.
    static func isoDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// `Sat, 28 Nov 2026 21:00:00 GMT`, as `Last-Modified` is written.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
