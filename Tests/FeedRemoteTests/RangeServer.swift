import FeedTestSupport
import Foundation

/// `Scripts/range_server.py` (a ``PortScript``): serves a folder with byte ranges and
/// validators, logs every request, and (with `cut`) breaks off, or (with `stall`) stops sending
/// in the middle of, the first GET of each file.
final class RangeServer {
    let script: PortScript
    var base: String { script.base }
    let log: URL

    /// Starts the server and waits (10 s at most) for the line that names its port.
    init(_ folder: URL, log: URL, cut: Int? = nil, stall: Int? = nil) async throws {
        self.log = log
        try Data().write(to: log)
        script = try await PortScript("range_server.py", [folder.path, log.path] + (cut.map { ["--cut", String($0)] } ?? [])
            + (stall.map { ["--stall", String($0)] } ?? []))
    }

    /// The URL of `name` in the folder.
    func url(_ name: String) -> URL { URL(string: base + "/" + name)! }

    /// The logged requests: "METHOD PATH RANGE STATUS" each.
    func requests() -> [String] {
        (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// SIGKILL (see ``PortScript``).
    func stop() { script.stop() }
}
