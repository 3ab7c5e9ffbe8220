import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `feed live publish FILE… --to URL [--loop]`: a broadcaster for when no camera is at hand.
struct LivePublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Send video files to a live stream at real time over RTMP.",
        discussion: """
            Sends the files one after another, as they are (H.264 and AAC, no re-encoding), to \
            the RTMP URL that ffmpeg and OBS take: the stream's rtmp_url, a slash, its \
            stream_key. Timestamps run on across files, so with --loop the stream never stops \
            until Ctrl-C (the stream then waits for its publisher as long as the server's \
            reconnect window). Every file must be encoded alike (one H.264 configuration: same \
            size and profile; AAC audio in all or none), since a live stream keeps one; every \
            file is checked before anything is sent. The server cuts segments at the files' key \
            frames: for low latency, use files with a key frame each second (ffmpeg -g with the \
            frame rate). Status goes to stderr; the key never appears in it.
            Exit status: 0 the files were sent, 64 bad option or URL, 65 a file cannot be sent \
            as it is (its codec, a configuration that differs: the message says which), 66 a \
            file does not exist, 70 the server cannot be reached or did not answer, 74 the \
            connection was lost (or the stream ended on the server), 77 the server refused the \
            key or the stream (another publisher, an ended stream), 130 stopped (SIGINT or \
            SIGTERM: the stream is unpublished first).

            EXAMPLES:
              feed live publish clip.mp4 --to rtmp://127.0.0.1:1935/live/KEY
              feed live publish a.mp4 b.mp4 --to "$RTMP_URL/$STREAM_KEY" --loop
            """
    )

    @Argument(help: "The files to send, in order (MP4 or MOV with H.264 and AAC).") var files: [String]
    @Option(help: ArgumentHelp("Where to send: rtmp://HOST[:PORT]/APP/KEY.", valueName: "url")) var to: String
    @Flag(help: "Start again from the first file after the last, until stopped.") var loop = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file to publish") }
    }

    func run() async throws {
        let target = try RTMPPublishTarget(url: to)
        let source = try LivePublishSource(paths: files, loop: loop)
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        let info = source.info
        let audio = info.audioCodec == nil ? "no audio" : "H.264 + AAC"
        let shown = files.count == 1 ? files[0] : "\(files.count) files"
        let sent = try await RTMPPublisher(target: target).publish(source, isCancelled: trap.isCaught) {
            let line = "publishing \(shown) (\(info.displayWidth)x\(info.displayHeight), \(String(format: "%g", (info.nominalFPS * 100).rounded() / 100)) fps, \(audio)) to \(target.redacted)\(loop ? ", looping" : "")"
            try? StandardStream.error.write(line + "\n")
        }
        let seconds = String(format: "%.1f", Double(sent) / 1000)
        if trap.caught() {
            throw CommandFailure(description: "\(target.redacted): stopped after \(seconds) s; the stream was unpublished", kind: .interrupted)
        }
        try StandardStream.error.write("sent \(seconds) s to \(target.redacted)\n")
    }
}
