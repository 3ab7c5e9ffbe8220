import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `--server URL` and `--token T`: the `feed serve` that `feed push` and `feed remote` talk to.
struct ServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The feed serve to talk to, e.g. http://127.0.0.1:8080. (default: $FEED_SERVER)", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Its bearer token (feed serve --token). (default: $FEED_TOKEN)", valueName: "token"))
    var token: String?

    /// A connection to the server; the caller shuts it down.
    func connect(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RemoteServer {
        guard let url = server ?? environment["FEED_SERVER"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw CommandFailure(description: "no server: give --server URL (or set FEED_SERVER)", kind: .usage)
        }
        return try RemoteServer(url: url, token: token ?? environment["FEED_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Runs `body` with a connection to the server, closed after it in every case.
    func with<T>(_ body: (RemoteServer) async throws -> T) async throws -> T {
        let remote = try connect()
        do {
            let value = try await body(remote)
            await remote.shutdown()
            return value
        } catch {
            await remote.shutdown()
            throw error
        }
    }
}
