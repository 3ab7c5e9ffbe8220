import Foundation
import Testing
@testable import FeedJobs

@Suite("WorkerIdentity (HOST[~pidnsN]:PID)")
struct WorkerIdentityTests {
    @Test("names parse back into host and pid, a container's ~pidnsN staying with the host", arguments: [
        ("web-1:4242", "web-1", Int32(4242)),
        ("web-1~pidns4026532999:1", "web-1~pidns4026532999", Int32(1)),
        ("host.example:7", "host.example", Int32(7)),
    ])
    func parses(text: String, host: String, pid: Int32) throws {
        let identity = try #require(WorkerIdentity(text))
        #expect(identity.host == host && identity.pid == pid)
        #expect(identity.description == text)
    }

    @Test("anything else is not a worker's name", arguments: ["", "web-1", "web-1:", "web-1:0", "web-1:-3", "web-1:x", "1-0a1b2c3d.mp4"])
    func refuses(text: String) {
        #expect(WorkerIdentity(text) == nil)
    }

    @Test("this process: its pid, and ~pidns only when its pid namespace is not the machine's")
    func current() throws {
        let current = WorkerIdentity.current
        #expect(current.pid == getpid())
        var info = stat()
        try #require(stat("/proc/self/ns/pid", &info) == 0)
        let own = UInt(info.st_ino) == WorkerIdentity.initialPIDNamespace
        #expect(current.host.hasSuffix("~pidns\(info.st_ino)") == !own, "\(current)")
        #expect(!current.isDeadLocalProcess, "a live process is not dead")
        #expect(!WorkerIdentity(host: current.host, pid: getppid()).isDeadLocalProcess, "the parent is alive")
    }
}
