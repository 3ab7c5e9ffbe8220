import ServiceLifecycle

/// A service that says so, in one log line, when it has stopped: `feed serve` and `feed worker`
/// wrap theirs in it, so whoever runs them sees the order SIGTERM stopped them in (the server,
/// then the runner, then the catalog they used).
public struct AnnouncedService: Service {
    /// What runs.
    public let service: any Service
    /// The line written once `service` has returned (not when it throws: the group reports that).
    public let stopped: String
    /// Where the line goes (nil: nowhere).
    public let log: (@Sendable (String) -> Void)?

    /// `service`, which writes `stopped` to `log` once it has returned.
    public init(_ service: any Service, stopped: String, log: (@Sendable (String) -> Void)?) {
        self.service = service
        self.stopped = stopped
        self.log = log
    }

    public func run() async throws {
        try await service.run()
        log?(stopped)
    }
}
