import FeedCore
import FeedSocial
import Foundation

/// A tus upload whose `Upload-Metadata` has `publish` (and optionally `description`,
/// `visibility`; `author` for an upload that belongs to no user) becomes a post when it
/// completes, so an app needs one call. What it asks for is checked when the upload is
/// created, so a bad description is refused before any byte is sent.
struct UploadPublishing: Sendable {
    let social: Social
    let log: (@Sendable (String) -> Void)?

    /// The draft an upload's metadata asks for, checked; nil when it does not ask to publish.
    /// - Throws: ``SocialError`` for a description or visibility that is refused, or an upload
    ///   of nobody without an `author`.
    static func draft(_ metadata: UploadMetadata, recording: Int64, owner: String?) throws(SocialError) -> PostDraft? {
        guard metadata.publish else { return nil }
        let text = try PostText(validating: metadata.values["description"] ?? "")
        var visibility = Visibility.public
        if let given = metadata.values["visibility"], !given.isEmpty {
            guard let value = Visibility(rawValue: given) else {
                throw SocialError.invalidField("visibility", "must be public, followers or private, not \(given)")
            }
            visibility = value
        }
        let author = metadata.values["author"].flatMap { $0.isEmpty ? nil : $0 }
        if owner == nil && author == nil { throw SocialError.invalidField("author", "must name the post's author: the upload belongs to no user") }
        return PostDraft(recordingID: recording, viewer: owner.map(Viewer.user) ?? .admin, author: author, text: text, visibility: visibility)
    }

    /// Publishes `upload` if its metadata asks to (once it is done); a refusal is logged (the
    /// upload itself succeeded: its recording is in the roll).
    func completed(_ upload: Upload, _ metadata: UploadMetadata) async {
        guard metadata.publish, case .done(let recording) = upload.state else { return }
        do {
            guard let draft = try Self.draft(metadata, recording: recording, owner: upload.owner) else { return }
            let post = try await social.publish(draft)
            log?("upload \(upload.id): published as post \(post.id)")
        } catch {
            if case .alreadyPublished = error { return }  // the same bytes again: its post stands
            log?("upload \(upload.id): not published: \(error)")
        }
    }
}
