import FeedCore
import Foundation

/// What a live stream's event stream (`GET /live/{id}/events`, Server-Sent Events) carries.
enum LiveEvent: Sendable, Equatable {
    /// A comment posted to the stream.
    case comment(LiveComment)
    /// `count` hearts sent in the last tick, at the stream's time `streamTime` when it plays here.
    case heart(count: Int, streamTime: Date?)
    /// How many clients watch: distinct callers that fetched the playlist lately.
    case viewers(Int)
    /// The stream's state changed (or, first thing, what it is).
    case state(LiveStream.State)
    /// Nothing happened for a while: a comment line, so proxies keep the connection.
    case keepAlive

    /// The event as SSE: `event: NAME`, one `data:` line of JSON, a blank line.
    var sse: [UInt8] {
        var data: [UInt8] = []
        let name: String
        switch self {
        case let .comment(comment):
            name = "comment"
            data = LiveEvent.json(comment)
        case let .heart(count, streamTime):
            name = "heart"
            data = Array(#"{"count":\#(count),"stream_time":"#.utf8)
            LiveEvent.time(streamTime, into: &data)
            data.append(UInt8(ascii: "}"))
        case let .viewers(count):
            name = "viewers"
            data = Array(#"{"viewers":\#(count)}"#.utf8)
        case let .state(state):
            name = "state"
            data = Array(#"{"state":""#.utf8) + Array(state.rawValue.utf8) + Array(#""}"#.utf8)
        case .keepAlive:
            return Array(": waiting\n\n".utf8)
        }
        return Array("event: \(name)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }

    /// A live comment as JSON: `id`, `username`, `comment`, `created_at`, `stream_time`.
    static func json(_ comment: LiveComment) -> [UInt8] {
        var out = Array(#"{"id":\#(comment.id),"username":"#.utf8)
        JSONOutput.write(comment.username, into: &out)
        out.append(contentsOf: #","comment":"#.utf8)
        JSONOutput.write(comment.text, into: &out)
        out.append(contentsOf: #","created_at":"#.utf8)
        time(comment.createdAt, into: &out)
        out.append(contentsOf: #","stream_time":"#.utf8)
        time(comment.streamTime, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    private static func time(_ date: Date?, into out: inout [UInt8]) {
        if let date { JSONOutput.write(Recording.iso8601(date), into: &out) } else { out.append(contentsOf: "null".utf8) }
    }
}
