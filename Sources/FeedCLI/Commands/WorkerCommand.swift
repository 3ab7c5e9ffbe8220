import ArgumentParser
import FeedCore
import FeedPostgres
import FeedJobs
import FeedRemote
import Foundation
import Logging
import ServiceLifecycle

/// `feed worker`: runs queued jobs (stack, hls, thumb) from the catalog, on as many hosts as you like.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run queued jobs (stacks, HLS ladders, poster frames) from the roll's job queue.",
        discussion: """
            Claims jobs that `feed serve` (POST /jobs/stack) or `feed jobs add` queued, at most \
            --concurrency at once (and up to 4 webhook deliveries beside them), each under a lease it renews every third of --lease seconds. A \
            worker that dies or stalls loses its lease: the job goes back to the queue after a \
            backoff (1, 2, 4 … 60 s) and another worker runs it; after its max attempts it is dead \
            (`feed jobs --state dead`, `feed jobs retry ID`). A late completion from a worker that lost \
            its lease is refused, so a job is done once. With --catalog postgres://… workers on \
            several machines share the queue (woken by LISTEN/NOTIFY, polling as well); they must \
            see the same --media folder. With the SQLite roll, workers on this machine share it.
            One line per job on stderr (claimed, done, failed, lease lost) unless --quiet.
            SIGTERM or SIGINT: no new claims; running jobs get --grace seconds to finish, then are \
            stopped (no output, no row) and released to the queue at once. Exit status 0, or 74 \
            when the catalog cannot be reached.

            EXAMPLES:
              feed worker --catalog postgres://feed@db/feed --media /mnt/feed
              FEED_CATALOG=postgres://feed@db/feed feed worker --drain  # queue empty: exit
            """
    )

    @OptionGroup var store: CatalogOptions
    @Option(parsing: .unconditional, help: "Jobs run at once; webhook deliveries (up to 4 more) do not count.") var concurrency = 1
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a lease lasts without renewal (a dead worker's jobs wait this long; default \(Int(JobRunner.defaultLease))).", valueName: "seconds"))
    var lease: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds running jobs may take to finish after SIGTERM.", valueName: "seconds"))
    var grace = 10.0
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds between looks at the queue when no notification comes (default \(Int(JobRunner.defaultPollInterval))).", valueName: "seconds"))
    var poll: Double?
    @OptionGroup(title: "Webhooks") var webhooks: WebhookOptions
    @Flag(help: "Exit once no job is queued and none runs here.") var drain = false
    @Flag(help: "No line per job on stderr.") var quiet = false

    func validate() throws {
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1…64, not \(concurrency)") }
        if let lease, !(1...3600).contains(lease) { throw ValidationError("--lease must be 1…3600 seconds, not \(lease)") }
        guard (0...3600).contains(grace) else { throw ValidationError("--grace must be 0…3600 seconds, not \(grace)") }
        if let poll, !(0.01...60).contains(poll) { throw ValidationError("--poll must be 0.01…60 seconds, not \(poll)") }
    }

    func run() async throws {
        // Claims and completions are shared by many jobs, so a few connections serve many slots.
        let worker = WorkerIdentity.current
        var log: (@Sendable (String) -> Void)?
        if !quiet {
            log = { line in FileHandle.standardError.write(Data("feed worker \(worker): \(line)\n".utf8)) }
        }
        let catalog = try await store.withRoll(connections: min(4 + concurrency, 16)) { roll -> String? in
            try await webhooks.register(in: roll)
            let sender = HTTPWebhookSender()
            defer { Task { await sender.shutdown() } }
            let delivery = try webhooks.delivery(sender: sender)
            let runner = JobRunner(queue: JobQueue(roll: roll), slots: concurrency, lease: lease ?? JobRunner.defaultLease,
                                   pollInterval: poll ?? JobRunner.defaultPollInterval,
                                   grace: grace, worker: worker, webhooks: delivery, log: log)
            log?("\(concurrency) slot(s) on \(store.catalogURL().map { (try? PostgresLocation($0))?.description ?? "PostgreSQL" } ?? roll.paths.database.path), media \(roll.paths.home.path)")
            var logger = Logger(label: "feed.worker")
            logger.logLevel = .error
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
                .init(service: AnnouncedService(runner, stopped: "job runner stopped", log: log))
            ]
            if drain { services.append(.init(service: DrainWatch(runner: runner, jobs: roll.catalog), successTerminationBehavior: .gracefullyShutdownGroup)) }
            var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            group.maximumGracefulShutdownDuration = .seconds(grace + 10)
            do {
                try await ServiceGroup(configuration: group).run()
            } catch {
                throw CommandFailure(description: "worker \(worker): \(error)", kind: .io)
            }
            return (roll.catalog as? PostgresCatalog)?.location.description
        }
        // The catalog is not in the group: its connections end with the scope above, once the
        // group has returned, so even past the group's deadline nothing that uses it still runs.
        if let catalog { log?("catalog closed (\(catalog))") }
        log?("stopped")
    }
}

/// `--drain`: ends (and so shuts the worker down) once nothing is queued and nothing runs here.
private struct DrainWatch: Service {
    let runner: JobRunner
    let jobs: any JobStore

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: .milliseconds(500))
            let queued = (try? await jobs.jobs(state: .queued, limit: 1).isEmpty) == true
            if queued, await runner.isIdle { return }
        }
    }
}
