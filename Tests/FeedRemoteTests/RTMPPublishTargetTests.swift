import FeedRemote
import Testing

/// `feed live publish --to`: the URLs ffmpeg and OBS take, and the refusals, with the key hidden.
@Suite("RTMPPublishTarget")
struct RTMPPublishTargetTests {
    @Test("rtmp://host[:port]/app/key: the port defaults to 1935, the app may hold slashes, IPv6 in brackets; the key never in tcUrl or messages")
    func parses() throws {
        let plain = try RTMPPublishTarget(url: "rtmp://127.0.0.1:1936/live/sk_abc")
        #expect(plain.host == "127.0.0.1" && plain.port == 1936 && plain.app == "live" && plain.key == "sk_abc")
        #expect(plain.tcURL == "rtmp://127.0.0.1:1936/live" && plain.redacted == "rtmp://127.0.0.1:1936/live/<key>")
        let defaults = try RTMPPublishTarget(url: "rtmp://live.example.com/app/inner/key1")
        #expect(defaults.port == 1935 && defaults.app == "app/inner" && defaults.key == "key1" && defaults.host == "live.example.com")
        let six = try RTMPPublishTarget(url: "rtmp://[::1]:2000/live/k")
        #expect(six.host == "::1" && six.port == 2000 && six.tcURL == "rtmp://[::1]:2000/live")
    }

    @Test("refusals name the URL without its key: another scheme, rtmps, no app or key, a bad port", arguments: [
        ("http://h/live/sk_secret", "http://h/live/<key>: not an rtmp:// URL"),
        ("rtmps://h/live/sk_secret", "rtmps://h/live/<key>: rtmps is not supported here: publish to the server's rtmp:// address (on loopback, or through a TLS tunnel)"),
        ("rtmp://h/live", "rtmp://h/live: expected rtmp://host[:port]/app/key (the stream's rtmp_url, a slash, its stream_key)"),
        ("rtmp://h/live/", "rtmp://h/live/<key>: expected rtmp://host[:port]/app/key (the stream's rtmp_url, a slash, its stream_key)"),
        ("rtmp://h:x/live/sk_secret", "rtmp://h:x/live/<key>: the port is not a number"),
        ("rtmp://h:70000/live/sk_secret", "rtmp://h:70000/live/<key>: the port is not between 1 and 65535"),
    ])
    func refuses(url: String, message: String) {
        do {
            _ = try RTMPPublishTarget(url: url)
            Issue.record("\(url) was taken")
        } catch {
            #expect(error.description == message && error.kind == .usage)
        }
    }
}
