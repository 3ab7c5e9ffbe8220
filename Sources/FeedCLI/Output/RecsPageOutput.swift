import FeedCore
import FeedRecs
import FeedSocial

/// A For You page as `feed recs` prints it: a table (place, id, author, reason, description),
/// or one JSON object with the fields `GET /feed/for-you` gives of each video that are the
/// catalog's.
struct RecsPageOutput {
    let page: ForYouPage

    /// The reason with its detail: `similar_to 1000000000004`, `topic food`.
    static func reason(_ reason: RecsReason) -> String {
        switch reason {
        case let .similarTo(video): "similar_to \(video)"
        case let .topic(tag): "topic #\(tag)"
        default: reason.name
        }
    }

    var table: Table {
        var table = Table(columns: [
            .init(header: "#", rightAligned: true), .init(header: "ID", rightAligned: true), .init(header: "AUTHOR"),
            .init(header: "REASON"), .init(header: "VIEWS", rightAligned: true), .init(header: "DESCRIPTION", flexible: true),
        ])
        for (index, item) in page.items.enumerated() {
            table.rows.append([String(index + 1), String(item.post.id), item.post.author, Self.reason(item.reason), String(item.post.views),
                               VideoList.oneLine(item.post.text.text)])
        }
        return table
    }

    var json: [UInt8] {
        var out = Array(#"{"videos":["#.utf8)
        for (index, item) in page.items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let post = item.post
            out.append(contentsOf: #"{"id":\#(post.id),"author":"#.utf8)
            JSONOutput.write(post.author, into: &out)
            out.append(contentsOf: #","reason":"\#(item.reason.name)","reason_video":"#.utf8)
            if case let .similarTo(video) = item.reason { out.append(contentsOf: String(video).utf8) } else { out.append(contentsOf: "null".utf8) }
            out.append(contentsOf: #","reason_topic":"#.utf8)
            if case let .topic(tag) = item.reason { JSONOutput.write(tag, into: &out) } else { out.append(contentsOf: "null".utf8) }
            out.append(contentsOf: #","description":"#.utf8)
            JSONOutput.write(post.text.text, into: &out)
            out.append(contentsOf: #","created_at":"#.utf8)
            JSONOutput.write(Recording.iso8601(post.createdAt), into: &out)
            out.append(contentsOf: #","views":\#(post.views),"likes":\#(post.likes)}"#.utf8)
        }
        out.append(contentsOf: #"],"next_cursor":"#.utf8)
        JSONOutput.write(page.next.text, into: &out)
        out.append(contentsOf: #","model_version":\#(page.modelVersion.map(String.init) ?? "null")}"#.utf8)
        return out
    }

    func print(json asJSON: Bool) throws {
        if asJSON {
            try StandardStream.output.write(json + [0x0A])
        } else {
            try StandardStream.output.write(Array(table.render(width: Terminal.width(), style: Style(enabled: Terminal.usesColor(.output))).utf8))
        }
    }
}
