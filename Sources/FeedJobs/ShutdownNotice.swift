import ServiceLifecycle

/// A service that does nothing but write `line` when graceful shutdown begins (SIGTERM or
/// SIGINT). Put last in a ServiceGroup, it is the first told, so its line comes before any
/// other service's.
public struct ShutdownNotice: Service {
    /// The line.
    public let line: String
    /// Where it goes (nil: nowhere).
    public let log: (@Sendable (String) -> Void)?

    /// Writes `line` to `log` when shutdown begins.
    public init(_ line: String, log: (@Sendable (String) -> Void)?) {
        self.line = line
        self.log = log
    }

    public func run() async throws {
        try? await gracefulShutdown()
        if Task.isShuttingDownGracefully { log?(line) }
    }
}
