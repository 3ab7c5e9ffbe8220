import ArgumentParser
import FeedCore

/// `feed webhooks`: the webhook deliveries of the catalog, newest first.
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "List webhook deliveries (feed serve --webhook), newest first.",
        discussion: """
            Each event (upload.done, upload.failed, job.done, job.failed, job.cancelled, hls.ready, \
            live.connected, live.active, live.disconnected, live.ended, live.recording.ready) is one \
            delivery per endpoint: a job in the queue, POSTed with Feed-Signature \
            (t=UNIX,v1=HMAC-SHA256 hex of "UNIX." + body) and retried with a doubling wait until \
            it gets a 2xx or --webhook-window (24 h) passes. STATE is queued (waiting for its next \
            attempt), running, done (delivered) or failed (the window ran out). The table shows the \
            delivery's id, state, event type and id, attempts, endpoint and the last error; --json \
            gives id, event_id, type, url, state, attempts, error, created_at, updated_at, \
            next_attempt_at. GET /webhooks/deliveries serves the same (admin).

            EXAMPLES:
              feed webhooks
              feed webhooks --state failed --json | jq -r ".[].error"
            """
    )

    @OptionGroup var store: CatalogOptions
    @Option(help: ArgumentHelp("Only deliveries in this state: queued, running, done, failed, cancelled, dead.", valueName: "state"))
    var state: Job.State?
    @Option(parsing: .unconditional, help: "At most this many (0 = all).") var limit = 50
    @Flag(help: "One JSON array.") var json = false

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() async throws {
        try await store.withRoll(.readOnly) { roll in
            let deliveries = try await roll.catalog.jobs(state: state, kind: .webhook, limit: limit > 0 ? limit : nil, ownedBy: nil)
            if json {
                var out: [UInt8] = [UInt8(ascii: "[")]
                for (index, job) in deliveries.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out += WebhookDeliveryJSON.bytes(job)
                }
                return try StandardStream.output.write(out + Array("]\n".utf8))
            }
            var table = Table(columns: [
                .init(header: "ID", rightAligned: true), .init(header: "STATE"), .init(header: "TYPE"), .init(header: "EVENT"),
                .init(header: "TRIES", rightAligned: true), .init(header: "URL"), .init(header: "ERROR", flexible: true),
            ])
            for job in deliveries {
                let request = WebhookDeliveryJSON.request(job)
                table.rows.append([String(job.id), job.state.rawValue, request?.type ?? "?", request?.eventID ?? "?",
                                   String(job.attempts), request?.url ?? "?", job.error ?? ""])
            }
            try StandardStream.output.write(table.render(width: Terminal.width(), style: Style(enabled: Terminal.usesColor(.output))))
        }
    }
}
