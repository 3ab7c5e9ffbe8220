import FeedCore
import FeedRecs
import Foundation

/// A trained model's row as `feed recs train` prints it: `key: value` lines or one JSON object.
struct ModelInfoRecord {
    let info: ModelInfo

    init(_ info: ModelInfo) { self.info = info }

    var record: RecordList {
        var list = RecordList()
        list.add("version", String(info.version))
        list.add("trained_at", Recording.iso8601(Date(timeIntervalSince1970: info.trainedAt)))
        list.add("events", String(info.events))
        list.add("viewers", String(info.viewers))
        list.add("videos", String(info.videos))
        list.add("seconds", String(format: "%.3f", info.seconds))
        list.add("bytes", String(info.bytes))
        return list
    }

    var json: [UInt8] {
        var out = Array(#"{"version":\#(info.version),"trained_at":"#.utf8)
        JSONOutput.write(Recording.iso8601(Date(timeIntervalSince1970: info.trainedAt)), into: &out)
        out.append(contentsOf: #","events":\#(info.events),"viewers":\#(info.viewers),"videos":\#(info.videos),"seconds":\#(String(format: "%.3f", info.seconds)),"bytes":\#(info.bytes)}"#.utf8)
        return out
    }

    func print(json asJSON: Bool) throws {
        if asJSON { try StandardStream.output.write(json + [0x0A]) } else {
            try StandardStream.output.write(record.render(style: Style(enabled: Terminal.usesColor(.output))))
        }
    }
}
