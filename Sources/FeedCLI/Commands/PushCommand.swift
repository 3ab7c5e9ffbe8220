import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `feed push FILE… --server URL`: resumable uploads to a `feed serve`'s roll.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Upload recordings to a feed serve's roll, resumably (tus).",
        discussion: """
            Each file goes up in chunks (--chunk-size) with tus 1.0.0 and lands in the server's roll; \
            the recording ids are printed as the files finish, one line each (--json: one array of \
            {file, upload_id, recording_id, bytes, sent, resumed_from}). A cut connection or a \
            restarting server is retried (--retries) from the offset the server confirms. An upload \
            interrupted for good (Ctrl-C, the server down) is remembered under \
            $XDG_STATE_HOME/feed/uploads (else ~/.local/state/feed/uploads): the same command run \
            again resumes it from the server's offset instead of sending the file again, as long as \
            the file is unchanged and the server still holds the upload (24 h by default).
            Progress (percent, bytes, rate) is drawn on stderr when it is a terminal.
            Exit status: 64 bad option or no --server, 65 the server refused a file (not media, \
            over its size limit: its message), 66 a file does not exist, 74 the server cannot be \
            reached or stopped answering, 77 a token is needed or wrong, 130 interrupted (SIGINT or \
            SIGTERM; run the command again to resume).

            EXAMPLES:
              feed push clip.mp4 --server http://127.0.0.1:8080
              export FEED_SERVER=http://10.0.0.5:8080 FEED_TOKEN=s3cret
              feed push front.mov back.mov --json | jq '.[].recording_id'
              feed push big.mov --limit-rate 2M --title "Beach"
            """
    )

    @Argument(help: "The files to upload.") var files: [String]
    @OptionGroup var server: ServerOptions
    @Option(help: "The recordings' title (one line).") var title: String?
    @OptionGroup(title: "Sending") var sending: PushOptions
    @Flag(help: "Print one JSON array of what was pushed on stdout.") var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file to push") }
        if let title, title.contains(where: \.isNewline) { throw ValidationError("--title must be one line") }
    }

    func run() async throws {
        for file in files { try FilePush.check(file) }
        let trap = SignalTrap(signals: [SIGINT, SIGTERM])
        defer { trap.release() }
        let pushed = try await server.with { remote in
            var pushed: [PushResult] = []
            let push = FilePush(server: remote, chunkSize: Int(sending.chunkSize.bytes),
                                bytesPerSecond: sending.limitRate.map { Int($0.bytes) }, retries: sending.retries)
            for file in files {
                let result = try await push.push(file, title: title, isCancelled: trap.isCaught)
                pushed.append(result)
                if !json { try StandardStream.output.write(result.line) }
            }
            return pushed
        }
        if json {
            try StandardStream.output.write(Array("[".utf8) + pushed.map(\.json).joined(separator: Array(",".utf8)) + Array("]\n".utf8))
        }
    }
}
