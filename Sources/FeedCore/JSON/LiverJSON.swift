/// Writes videos and comments back in the LIVEr app's own shape, the one LIVEr-style apps
/// decode: `{"videos":[{"id","userID","username","profilePicURL","description","topic",
/// "viewers","likes","video","preload_bytes","thumbnail"}]}` and `{"comments":[{"id","username","picURL","comment"}]}`
/// (null where a value is absent; ids as numbers or strings, as in the source).
public enum LiverJSON {
    /// Where a video's clip and poster are to be found by the reader of this document (a server
    /// rewrites local files to its own URLs), and how many leading bytes of the clip hold its
    /// first picture (`preload_bytes`, known for a server's own clips); nil writes null.
    public typealias Links = (Video) -> VideoLinks

    /// A video's clip and poster URLs and the clip's first-picture length.
    public struct VideoLinks: Sendable {
        public var video: String?
        public var thumbnail: String?
        public var preloadBytes: Int64?
        public init(video: String?, thumbnail: String?, preloadBytes: Int64? = nil) {
            self.video = video
            self.thumbnail = thumbnail
            self.preloadBytes = preloadBytes
        }
    }

    /// `{"videos":[…]}` with each video's links from `links`.
    public static func videos(_ videos: [Video], links: Links) -> [UInt8] {
        var out = Array(#"{"videos":["#.utf8)
        out.reserveCapacity(videos.count * 400 + 16)
        for (index, video) in videos.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(video, links: links(video), into: &out)
        }
        out.append(contentsOf: "]}\n".utf8)
        return out
    }

    /// One video object (no newline).
    public static func encode(_ video: Video, links: VideoLinks, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONOutput.write(video.id, into: &out)
        out.append(contentsOf: #","userID":"#.utf8)
        if let user = video.userID { JSONOutput.write(user, into: &out) } else { JSONOutput.writeNull(into: &out) }
        out.append(contentsOf: #","username":"#.utf8)
        JSONOutput.write(video.username, into: &out)
        out.append(contentsOf: #","profilePicURL":"#.utf8)
        JSONOutput.write(video.profilePicURLText, into: &out)
        out.append(contentsOf: #","description":"#.utf8)
        JSONOutput.write(video.description, into: &out)
        out.append(contentsOf: #","topic":"#.utf8)
        JSONOutput.write(video.topic, into: &out)
        out.append(contentsOf: #","viewers":"#.utf8)
        JSONOutput.write(Int64(video.viewers), into: &out)
        out.append(contentsOf: #","likes":"#.utf8)
        JSONOutput.write(Int64(video.likes), into: &out)
        out.append(contentsOf: #","video":"#.utf8)
        JSONOutput.write(links.video, into: &out)
        out.append(contentsOf: #","preload_bytes":"#.utf8)
        if let bytes = links.preloadBytes { JSONOutput.write(bytes, into: &out) } else { JSONOutput.writeNull(into: &out) }
        out.append(contentsOf: #","thumbnail":"#.utf8)
        JSONOutput.write(links.thumbnail, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"comments":[…]}`.
    public static func comments(_ comments: [Comment]) -> [UInt8] {
        var out = Array(#"{"comments":["#.utf8)
        for (index, comment) in comments.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            encode(comment, into: &out)
        }
        out.append(contentsOf: "]}\n".utf8)
        return out
    }

    /// One comment object (no newline).
    public static func encode(_ comment: Comment, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONOutput.write(comment.id, into: &out)
        out.append(contentsOf: #","username":"#.utf8)
        JSONOutput.write(comment.username, into: &out)
        out.append(contentsOf: #","picURL":"#.utf8)
        JSONOutput.write(comment.picURL?.absoluteString, into: &out)
        out.append(contentsOf: #","comment":"#.utf8)
        JSONOutput.write(comment.comment, into: &out)
        out.append(UInt8(ascii: "}"))
    }
}
