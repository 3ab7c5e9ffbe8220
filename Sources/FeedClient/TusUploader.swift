import Foundation
import OpenAPIRuntime

/// Resumable uploads to `feed serve`, tus 1.0.0 (creation, core): the file goes in chunks of
/// ``chunkSize``; after a failure the uploader asks the server where it stands (`HEAD`) and goes
/// on from there, up to ``retries`` failures in a row, waiting ``retryDelay`` (doubled each time)
/// or the server's `Retry-After`; the first request after a failure or a resume sends no bytes,
/// so an upload the server holds locked (423) costs no chunk.
/// An upload interrupted for good (the app killed, the server down for long) resumes later from
/// its id: pass it as `resuming`.
///
/// ```swift
/// let uploader = TusUploader(client: feed)
/// for try await progress in uploader.upload(file: path, title: "Beach") {
///     UserDefaults.standard.set(progress.uploadID, forKey: path)   // to resume after a crash
///     bar.progress = progress.fraction
///     if let id = progress.recordingID { print("recording", id) }
/// }
/// ```
public struct TusUploader: Sendable {
    /// The client the requests go through (its token and middlewares apply).
    public let client: FeedClient
    /// Bytes per `PATCH`; what a failure can cost at most. 4 MiB by default.
    public var chunkSize = 4 << 20
    /// Failures in a row (the network, a 5xx, 409) before the stream throws. 5 by default.
    public var retries = 5
    /// The wait before the first retry, doubled for each next one (at most 30 s). 0.5 s by default.
    public var retryDelay: Duration = .milliseconds(500)
    /// At most this many bytes per second, as `curl --limit-rate`; nil (the default) for no limit.
    public var bytesPerSecond: Int?
    /// How long, in all, to wait for the server to put a complete upload in the roll (probe, hash,
    /// a fast-start copy): it is asked (`GET /uploads/{id}`) after 0.1 s, then at doubling
    /// intervals up to every 2 s; past this the stream throws ``FeedClientError/transport(_:)``,
    /// and the upload's id still gives its fate. 10 minutes by default.
    public var processingTimeout: Duration = .seconds(600)
    /// How the uploader waits (retries, polling, the rate limit): tests pass one they drive.
    public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// An uploader over `client`.
    public init(client: FeedClient) {
        self.client = client
    }

    /// Uploads the file at `path`, or resumes the upload `resuming` when the server still holds
    /// it for a file of the same size (else starts a new one). The stream yields as bytes go out
    /// and as the server confirms them; its last element has ``UploadProgress/recordingID``. It
    /// throws ``FeedClientError``; cancelling the consuming task stops the upload (the server
    /// keeps what it confirmed, so it can be resumed).
    public func upload(file path: String, title: String? = nil, resuming: String? = nil)
        -> AsyncThrowingStream<UploadProgress, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: UploadProgress.self)
        let task = Task {
            do {
                try await run(path: path, title: title, resuming: resuming, continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: FeedClientError(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func run(path: String, title: String?, resuming: String?,
                     _ continuation: AsyncThrowingStream<UploadProgress, any Error>.Continuation) async throws {
        let file = try UploadFile(path: path)
        defer { file.close() }
        var progress: UploadProgress
        if let resuming, let offset = try await offset(of: resuming, length: file.length) {
            progress = UploadProgress(uploadID: resuming, offset: offset, length: file.length, sent: 0, resumedFrom: offset)
        } else {
            let id = try await create(file: file, path: path, title: title)
            progress = UploadProgress(uploadID: id, offset: 0, length: file.length, sent: 0, resumedFrom: 0)
        }
        continuation.yield(progress)
        let sent = SentBytes(start: progress, pace: bytesPerSecond, sleep: sleep) { continuation.yield($0) }
        var failures = 0
        // After a resume or a failure, the first PATCH carries no bytes: a server that cannot take
        // them yet (423 Locked: a dead server's claim has not run out) costs a round trip, not a chunk.
        var probe = progress.resumedFrom > 0
        while progress.offset < file.length {
            let count = probe ? 0 : Int(min(Int64(chunkSize), file.length - progress.offset))
            let bytes = try file.read(at: progress.offset, count: count)
            do {
                let body = HTTPBody(PacedBytes(bytes: bytes, sent: sent), length: .known(Int64(count)), iterationBehavior: .single)
                let answer = try await client.api.tusPatch(path: .init(id: progress.uploadID),
                                                           headers: .init(tusResumable: ._1_0_0, uploadOffset: Int(progress.offset)),
                                                           body: .applicationOffsetOctetStream(body))
                guard let offset = try answer.noContent.headers.uploadOffset else {
                    throw FeedClientError.unexpected("PATCH /uploads/\(progress.uploadID): no Upload-Offset")
                }
                // The server's number, checked: a negative or oversized one would stop the process below.
                guard (0...file.length).contains(Int64(offset)) else {
                    throw FeedClientError.unexpected("PATCH /uploads/\(progress.uploadID): Upload-Offset \(offset) is outside 0…\(file.length)")
                }
                progress = sent.confirm(Int64(offset))
                failures = 0
                probe = false
                continuation.yield(progress)
            } catch {
                try Task.checkCancellation()
                let failure = FeedClientError(error)
                failures += 1
                guard failure.isTransient, failures <= retries else { throw failure }
                probe = true
                try await sleep(failure.retryAfter.map { min($0, .seconds(60)) } ?? min(retryDelay * (1 << min(failures - 1, 16)), .seconds(30)))
                guard let offset = try? await offset(of: progress.uploadID, length: file.length) else {
                    if failures == retries { throw failure }
                    continue
                }
                progress = sent.confirm(offset)
                continuation.yield(progress)
            }
        }
        progress.recordingID = try await recording(of: progress.uploadID)
        continuation.yield(progress)
    }

    /// `POST /uploads`: the new upload's id.
    private func create(file: UploadFile, path: String, title: String?) async throws -> String {
        var metadata = ["filename \(Data((path as NSString).lastPathComponent.utf8).base64EncodedString())"]
        if let title { metadata.append("title \(Data(title.utf8).base64EncodedString())") }
        let created = try await client.api.tusCreate(headers: .init(tusResumable: ._1_0_0, uploadLength: file.length,
                                                                    uploadMetadata: metadata.joined(separator: ",")))
        guard let location = try created.created.headers.location,
              let id = location.split(separator: "/").last, !id.isEmpty else {
            throw FeedClientError.unexpected("POST /uploads: 201 without a Location")
        }
        return String(id)
    }

    /// `HEAD /uploads/{id}`: the server's offset, or nil when the upload is gone or is not this
    /// file's (another length).
    private func offset(of id: String, length: Int64) async throws -> Int64? {
        do {
            let headers = try await client.api.tusOffset(path: .init(id: id), headers: .init(tusResumable: ._1_0_0)).ok.headers
            // An offset outside the file is no resume point (the upload is made again).
            guard let offset = headers.uploadOffset, headers.uploadLength.map(Int64.init) == length,
                  (0...length).contains(Int64(offset)) else { return nil }
            return Int64(offset)
        } catch {
            let failure = FeedClientError(error)
            if case let .server(status, _) = failure, status == 404 || status == 410 { return nil }
            throw failure
        }
    }

    /// `GET /uploads/{id}` until the server has put the file in the roll (or refused it), waiting
    /// longer between asks each time, for ``processingTimeout`` at most.
    private func recording(of id: String) async throws -> Int {
        var delay: Duration = .milliseconds(100), waited: Duration = .zero
        while true {
            let upload = try await client.api.getUpload(path: .init(id: id)).ok.body.json
            switch upload.state {
            case .done:
                guard let recording = upload.recordingId else { throw FeedClientError.unexpected("GET /uploads/\(id): done without recording_id") }
                return recording
            case .failed:
                throw FeedClientError.server(status: 422, problem: Problem(
                    title: "Unprocessable Content", status: 422,
                    detail: "upload \(id): \(upload.error ?? "the server could not add it to the roll")", kind: "invalidData"))
            case .uploading, .processing:
                guard waited < processingTimeout else {
                    throw FeedClientError.transport("upload \(id): the server still says \(upload.state.rawValue) after waiting "
                                                    + "\(Int(processingTimeout.components.seconds)) s; GET /uploads/\(id) tells how it ends")
                }
                let pause = min(delay, processingTimeout - waited)
                try await sleep(pause)
                waited += pause
                delay = min(delay * 2, .seconds(2))
            }
        }
    }
}
