import Foundation

/// Who holds a job: `HOST:PID`, unique among live processes sharing a catalog. A job's row
/// names its worker; a process that finds rows or outputs of a dead process of its own host
/// (the pid no longer exists) takes them back at once instead of waiting for the lease.
///
/// A process in a pid namespace of its own (a container) is `HOST~pidnsN:PID`, N the
/// namespace's inode: containers often share the machine's host name (host networking) while
/// each numbers its processes from 1, so `HOST:PID` alone would make one container's live
/// worker look like a dead process of the other's, or even like itself.
public struct WorkerIdentity: Sendable, Equatable, CustomStringConvertible {
    /// The host name (`gethostname`), with `~pidnsN` in a pid namespace other than the machine's.
    public var host: String
    /// The process id.
    public var pid: Int32

    /// This process.
    public static let current = WorkerIdentity(host: Self.hostName() + Self.pidNamespace(), pid: getpid())

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

    /// The inode of the initial pid namespace, the machine's own (PROC_PID_INIT_INO in Linux).
    static let initialPIDNamespace: UInt = 0xEFFF_FFFC

    /// "" in the machine's own pid namespace, else `~pidnsN` (N: the namespace's inode, shared
    /// by every process of that container).
    private static func pidNamespace() -> String {
        var info = stat()
        guard stat("/proc/self/ns/pid", &info) == 0, UInt(info.st_ino) != initialPIDNamespace else { return "" }
        return "~pidns\(info.st_ino)"
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        let name = String(cString: buffer)
        return name.isEmpty ? "localhost" : name
    }
}
