import FeedCore
import Foundation

/// Every field of one video or post, as `show` prints it: `key: value` lines or JSON.
/// Keys are the JSON names (snake_case), so the text and `--json` forms read the same.
enum ItemRecord {
    /// A video's fields, in `JSONOutput`'s order.
    static func record(_ video: Video) -> RecordList {
        var record = RecordList()
        record.add("id", video.id.description)
        record.add("user_id", video.userID?.description)
        record.add("username", video.username.isEmpty ? nil : video.username)
        record.add("profile_pic_url", video.profilePicURL?.absoluteString)
        record.add("description", video.description.isEmpty ? nil : VideoList.oneLine(video.description))
        record.add("topic", video.topic)
        record.add("viewers", String(video.viewers))
        record.add("likes", String(video.likes))
        record.add("video", video.videoReference?.text)
        record.add("thumbnail", video.thumbnailReference?.text)
        record.add("hashtags", video.hashtags.isEmpty ? nil : video.hashtags.map { "#" + $0 }.joined(separator: " "))
        record.add("duration", video.duration.map(seconds))
        record.add("width", video.width.map(String.init))
        record.add("height", video.height.map(String.init))
        return record
    }

    /// A post's fields, then each media item's as `media[i].field`.
    static func record(_ post: Post) -> RecordList {
        var record = RecordList()
        record.add("id", post.id.description)
        record.add("account_id", post.accountID?.description)
        record.add("title", post.title.isEmpty ? nil : VideoList.oneLine(post.title))
        record.add("description", post.description.isEmpty ? nil : VideoList.oneLine(post.description))
        record.add("view_count", String(post.viewCount))
        record.add("upvote_count", String(post.upvoteCount))
        record.add("comment_count", String(post.commentCount))
        record.add("created_at", post.createdAt.map { $0.formatted(.iso8601) })
        record.add("url", post.url?.absoluteString)
        for (index, media) in post.media.enumerated() {
            let prefix = "media[\(index)]."
            record.add(prefix + "id", media.id.description)
            record.add(prefix + "type", media.type.rawValue)
            record.add(prefix + "mime_type", media.mimeType)
            record.add(prefix + "url", media.reference?.text)
            record.add(prefix + "width", String(media.width))
            record.add(prefix + "height", String(media.height))
            record.add(prefix + "size", "\(media.size) bytes")
            if media.type == .video {
                record.add(prefix + "duration", seconds(media.metadata.duration))
                record.add(prefix + "is_looping", String(media.metadata.isLooping))
                record.add(prefix + "has_sound", String(media.metadata.hasSound))
            }
        }
        return record
    }

    /// A post as one JSON object (newline-terminated), in the FeedsApp schema's field names.
    static func json(_ post: Post) -> [UInt8] {
        let media: [[String: Any]] = post.media.map { media in
            [
                "id": value(media.id), "type": media.type.rawValue, "mime_type": media.mimeType,
                "url": media.reference?.text ?? NSNull(), "width": media.width, "height": media.height,
                "size": media.size,
                "metadata": [
                    "duration": media.metadata.duration, "is_looping": media.metadata.isLooping,
                    "has_sound": media.metadata.hasSound,
                ],
            ]
        }
        let object: [String: Any] = [
            "id": value(post.id), "account_id": post.accountID.map(value) ?? NSNull(),
            "title": post.title, "description": post.description,
            "view_count": post.viewCount, "upvote_count": post.upvoteCount, "comment_count": post.commentCount,
            "created_at": post.createdAt.map { $0.formatted(.iso8601) } ?? NSNull(),
            "url": post.url?.absoluteString ?? NSNull(), "media": media,
        ]
        // Every value above is a JSON type, so serialization cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// A video as one JSON object (newline-terminated), `JSONOutput`'s documented fields.
    static func json(_ video: Video) -> [UInt8] {
        var out: [UInt8] = []
        JSONOutput.encode(video, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static func value(_ id: FeedID) -> Any {
        switch id {
        case .int(let number): number
        case .string(let text): text
        }
    }

    /// "12.5 s": seconds as written, without a trailing ".0".
    private static func seconds(_ value: Double) -> String {
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        return text + " s"
    }
}
