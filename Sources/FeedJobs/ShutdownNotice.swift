import ServiceLifecycle

/// A service that does nothing but write `line` (and run `then`) when graceful shutdown begins
/// (SIGTERM or SIGINT). Put last in a ServiceGroup, it is the first told, so its line comes
/// before any other service's, and `then` runs before the others stop.
public struct ShutdownNotice: Service {
    /// The line.
    public let line: String
    /// Where it goes (nil: nowhere).
    public let log: (@Sendable (String) -> Void)?
    /// What else is done first at shutdown (nil: nothing).
    public let then: (@Sendable () -> Void)?

    /// Writes `line` to `log` and runs `then` when shutdown begins.
    public init(_ line: String, log: (@Sendable (String) -> Void)?, then: (@Sendable () -> Void)? = nil) {
        self.line = line
        self.log = log
        self.then = then
    }

    public func run() async throws {
        try? await gracefulShutdown()
        guard Task.isShuttingDownGracefully else { return }
        log?(line)
        then?()
    }
}
