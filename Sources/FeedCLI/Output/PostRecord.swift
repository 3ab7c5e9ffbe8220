import FeedCore
import FeedSocial
import Foundation

/// One post as `feed publish` prints it: `key: value` lines, or one JSON object, the names of
/// the server's post fields (`GET /videos/{id}`) that are the catalog's.
struct PostRecord {
    var id: Int64
    var recording: Int64
    var author: String
    var visibility: String
    var description: String
    var hashtags: [String]
    var createdAt: Date
    var likes: Int64
    var comments: Int64
    var shares: Int64
    var hidden: Bool

    init(_ post: SocialPost) {
        self.init(id: post.id, recording: post.recordingID, author: post.author, visibility: post.visibility.rawValue,
                  description: post.text.text, hashtags: post.text.hashtags, createdAt: post.createdAt, likes: post.likes,
                  comments: post.comments, shares: post.shares, hidden: post.hidden)
    }

    init(id: Int64, recording: Int64, author: String, visibility: String, description: String, hashtags: [String], createdAt: Date,
         likes: Int64, comments: Int64, shares: Int64, hidden: Bool) {
        self.id = id
        self.recording = recording
        self.author = author
        self.visibility = visibility
        self.description = description
        self.hashtags = hashtags
        self.createdAt = createdAt
        self.likes = likes
        self.comments = comments
        self.shares = shares
        self.hidden = hidden
    }

    /// The fields as lines.
    var record: RecordList {
        var list = RecordList()
        list.add("id", String(id))
        list.add("recording", String(recording))
        list.add("author", author)
        list.add("visibility", visibility)
        list.add("description", description)
        list.add("hashtags", hashtags.joined(separator: " "))
        list.add("created_at", Recording.iso8601(createdAt))
        list.add("likes", String(likes))
        list.add("comments", String(comments))
        list.add("shares", String(shares))
        list.add("hidden", String(hidden))
        return list
    }

    /// One JSON object.
    var json: [UInt8] {
        var out = Array(#"{"id":\#(id),"recording":\#(recording),"author":"#.utf8)
        JSONOutput.write(author, into: &out)
        out.append(contentsOf: #","visibility":"\#(visibility)","description":"#.utf8)
        JSONOutput.write(description, into: &out)
        out.append(contentsOf: #","hashtags":["#.utf8)
        for (index, tag) in hashtags.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONOutput.write(tag, into: &out)
        }
        out.append(contentsOf: #"],"created_at":"#.utf8)
        JSONOutput.write(Recording.iso8601(createdAt), into: &out)
        out.append(contentsOf: #","likes":\#(likes),"comments":\#(comments),"shares":\#(shares),"hidden":\#(hidden)}"#.utf8)
        return out
    }

    /// Writes the post to stdout: JSON (one line) or the record.
    func print(json asJSON: Bool) throws {
        if asJSON {
            try StandardStream.output.write(json + [0x0A])
        } else {
            try StandardStream.output.write(record.render(style: Style(enabled: Terminal.usesColor(.output))))
        }
    }
}
