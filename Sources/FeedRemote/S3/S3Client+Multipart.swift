import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension S3Client {
    /// The smallest part S3 takes, but for the last: 5 MiB.
    public static let minimumPartSize = 5 << 20
    /// The most parts one upload may have.
    public static let maximumParts = 10_000

    /// Begins a multipart upload that will complete at `key`; returns its id.
    public func createMultipartUpload(_ key: String, contentType: String? = nil) async throws(S3Error) -> String {
        let call = Call(method: .POST, key: key, query: [("uploads", "")], headers: contentType.map { [("content-type", $0)] } ?? [],
                        operation: "begin a multipart upload")
        let answer = try await xml(try await send(call), call)
        guard let id = answer["UploadId"], !id.isEmpty else {
            throw .invalidResponse(target: target(key), operation: call.operation, reason: "no UploadId")
        }
        return id
    }

    /// Uploads part `number` (1…10,000) of upload `uploadID`; returns it with its entity tag.
    public func uploadPart(_ key: String, uploadID: String, number: Int, body: ByteBuffer) async throws(S3Error) -> S3MultipartUpload.Part {
        let call = Call(method: .PUT, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)], body: body,
                        operation: "upload part \(number)")
        let response = try await send(call)
        _ = try? await response.body.collect(upTo: 64 << 10)
        guard let etag = response.headers.first(name: "etag") else {
            throw .invalidResponse(target: target(key), operation: call.operation, reason: "no ETag")
        }
        return .init(number: number, etag: Self.unquoted(etag), size: Int64(body.readableBytes))
    }

    /// Joins `parts` (in number order) into the object at `key`; returns its entity tag.
    @discardableResult
    public func completeMultipartUpload(_ key: String, uploadID: String, parts: [S3MultipartUpload.Part]) async throws(S3Error) -> String {
        var text = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for part in parts.sorted(by: { $0.number < $1.number }) {
            text += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\"\(part.etag)\"</ETag></Part>"
        }
        text += "</CompleteMultipartUpload>"
        let call = Call(method: .POST, key: key, query: [("uploadId", uploadID)], headers: [("content-type", "application/xml")],
                        body: ByteBuffer(string: text), operation: "complete the multipart upload")
        let answer = try await xml(try await send(call), call)
        return Self.unquoted(answer["ETag"] ?? "")
    }

    /// Ends upload `uploadID` without an object, freeing its parts; one already gone is fine.
    public func abortMultipartUpload(_ key: String, uploadID: String) async throws(S3Error) {
        let call = Call(method: .DELETE, key: key, query: [("uploadId", uploadID)], operation: "abort the multipart upload")
        let response = try await send(call, accept: [404])
        _ = try? await response.body.collect(upTo: 64 << 10)
    }

    /// The parts the store holds of upload `uploadID`, in number order (every page); nil when the
    /// store no longer knows the upload (completed, aborted or expired).
    public func listParts(_ key: String, uploadID: String) async throws(S3Error) -> [S3MultipartUpload.Part]? {
        var parts: [S3MultipartUpload.Part] = []
        var marker: String?
        repeat {
            var call = Call(method: .GET, key: key, query: [("uploadId", uploadID)], operation: "list the upload's parts")
            if let marker { call.query.append(("part-number-marker", marker)) }
            let response = try await send(call, accept: [404])
            if response.status == .notFound {
                _ = try? await response.body.collect(upTo: 64 << 10)
                return nil
            }
            let page = try await xml(response, call)
            for item in page.all("Part") {
                guard let number = item["PartNumber"].flatMap(Int.init), let size = item["Size"].flatMap(Int64.init) else {
                    throw .invalidResponse(target: target(key), operation: call.operation, reason: "a part without PartNumber or Size")
                }
                parts.append(.init(number: number, etag: Self.unquoted(item["ETag"] ?? ""), size: size,
                                   modified: item["LastModified"].flatMap(Self.isoDate)))
            }
            marker = page["IsTruncated"] == "true" ? page["NextPartNumberMarker"] : nil
        } while marker != nil
        return parts.sorted { $0.number < $1.number }
    }

    /// The multipart uploads open under `prefix` (every page), oldest key first.
    public func listMultipartUploads(prefix: String) async throws(S3Error) -> [S3MultipartUpload] {
        var uploads: [S3MultipartUpload] = []
        var markers: (key: String, id: String)?
        repeat {
            var call = Call(method: .GET, key: nil, query: [("uploads", ""), ("prefix", prefix)], operation: "list multipart uploads")
            if let markers { call.query += [("key-marker", markers.key), ("upload-id-marker", markers.id)] }
            let page = try await xml(try await send(call), call)
            for item in page.all("Upload") {
                guard let key = item["Key"], let id = item["UploadId"] else {
                    throw .invalidResponse(target: target(nil), operation: call.operation, reason: "an upload without Key or UploadId")
                }
                uploads.append(.init(key: key, uploadID: id, initiated: item["Initiated"].flatMap(Self.isoDate)))
            }
            if page["IsTruncated"] == "true", let key = page["NextKeyMarker"], let id = page["NextUploadIdMarker"] {
                markers = (key, id)
            } else {
                markers = nil
            }
        } while markers != nil
        return uploads
    }
}
