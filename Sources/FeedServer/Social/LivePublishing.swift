import FeedCore
import FeedSocial
import Foundation

/// A live stream created with `"publish": true` (`POST /live`) becomes a post once its
/// recording is in the roll: by the stream's owner, or the `author` given for a stream with none.
struct LivePublishing: Sendable {
    let social: Social
    let log: (@Sendable (String) -> Void)?

    /// The draft a `POST /live` body asks for, checked; nil when it does not ask to publish.
    static func draft(publish: Bool?, description: String?, visibility: Visibility?, author: String?,
                      owner: String?) throws(SocialError) -> LivePublishDraft? {
        // What is given is checked even when it is not to be published yet: a body is refused whole.
        let text = try PostText(validating: description ?? "")
        guard publish == true else { return nil }
        let author = owner == nil ? author.flatMap { $0.isEmpty ? nil : $0 } : nil
        if owner == nil && author == nil { throw SocialError.invalidField("author", "must name the post's author: the stream belongs to no user") }
        return LivePublishDraft(author: author, text: text, visibility: visibility ?? .public)
    }

    /// Publishes stream `stream`'s recording if the stream asked to be published.
    func ready(_ stream: LiveStream, recording: Int64) async {
        guard let draft = try? await social.store.livePublish(streamID: stream.id) else { return }
        do {
            let post = try await social.publish(PostDraft(recordingID: recording, viewer: stream.owner.map(Viewer.user) ?? .admin,
                                                          author: draft.author, text: draft.text, visibility: draft.visibility))
            log?("live stream \(stream.id): published as post \(post.id)")
        } catch {
            if case .alreadyPublished = error {} else { log?("live stream \(stream.id): not published: \(error)") }
        }
        try? await social.store.clearLivePublish(streamID: stream.id)
    }
}
