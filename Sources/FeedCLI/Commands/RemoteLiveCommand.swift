import ArgumentParser
import FeedClient
import FeedCore

/// `feed remote live`: `feed live` through a server (`/live`): the caller's streams.
struct RemoteLiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Live streams on a server: create, list, show, key, end (as 'feed live').",
        discussion: """
            The caller's streams (an admin's, everyone's), through POST /live, GET /live, \
            GET /live/{id}, POST /live/{id}/key and DELETE /live/{id}. Each prints what 'feed live' \
            prints, plus rtmp_url (where OBS or ffmpeg publishes; none without the server's \
            --rtmp-port) and playback_url (the LL-HLS playlist players follow).

            EXAMPLES:
              feed remote live create "Friday launch" --server http://127.0.0.1:8080
              feed remote live list --json | jq '.[].id'
              feed remote live end 3
            """,
        subcommands: [RemoteLiveListCommand.self, RemoteLiveCreateCommand.self, RemoteLiveShowCommand.self,
                      RemoteLiveKeyCommand.self, RemoteLiveEndCommand.self],
        defaultSubcommand: RemoteLiveListCommand.self
    )

    /// Prints a stream the server gave: the record (or JSON) of ``LiveStreamRecord``, with its URLs.
    static func print(_ stream: Components.Schemas.LiveStream, json: Bool) throws {
        let local = LiveStream(remote: stream)
        let showKey = stream.streamKey != nil
        if json {
            var out: [UInt8] = []
            LiveStreamJSON.encode(local, showKey: showKey, extra: urls(stream), into: &out)
            return try StandardStream.output.write(out + [0x0A])
        }
        var record = LiveStreamRecord.record(local, showKey: showKey)
        record.add("rtmp_url", stream.rtmpUrl)
        record.add("playback_url", stream.playbackUrl)
        try StandardStream.output.write(record.render(style: Style(enabled: Terminal.usesColor(.output))))
    }

    /// `rtmp_url` and `playback_url` as JSON fields.
    static func urls(_ stream: Components.Schemas.LiveStream) -> [(String, [UInt8])] {
        var rtmp = Array("null".utf8), playback: [UInt8] = []
        if let url = stream.rtmpUrl {
            rtmp = []
            JSONOutput.write(url, into: &rtmp)
        }
        JSONOutput.write(stream.playbackUrl, into: &playback)
        return [("rtmp_url", rtmp), ("playback_url", playback)]
    }
}
