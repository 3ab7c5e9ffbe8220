import Foundation

/// Who holds a job: `HOST:PID`, unique among live processes sharing a catalog. A job's row
/// names its worker; a process that finds rows or outputs of a dead process of its own host
/// (the pid no longer exists) takes them back at once instead of waiting for the lease.
public struct WorkerIdentity: Sendable, Equatable, CustomStringConvertible {
    /// The host name (`gethostname`).
    public var host: String
    /// The process id.
    public var pid: Int32

    /// This process.
    public static let current = WorkerIdentity(host: Self.hostName(), pid: getpid())

    public init(host: String, pid: Int32) {
        self.host = host
        self.pid = pid
    }

    /// `HOST:PID` parsed back; nil for anything else.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let pid = Int32(text[text.index(after: colon)...]), pid > 0 else { return nil }
        host = String(text[..<colon])
        self.pid = pid
    }

    public var description: String { "\(host):\(pid)" }

    /// Whether this is a process of this host that has exited (so its jobs can be taken back now).
    public var isDeadLocalProcess: Bool {
        guard host == Self.current.host, pid != Self.current.pid else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        let name = String(cString: buffer)
        return name.isEmpty ? "localhost" : name
    }
}
