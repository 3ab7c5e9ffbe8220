import ArgumentParser

/// How `feed push` and `feed remote stack` send files: chunk size, rate limit, retries.
struct PushOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Bytes per request; what a cut connection can cost at most (K, M, G suffixes).", valueName: "size"))
    var chunkSize = ByteSize(bytes: 4 << 20)

    @Option(parsing: .unconditional, help: ArgumentHelp("Send at most this many bytes per second, as curl's --limit-rate (e.g. 2M).", valueName: "rate"))
    var limitRate: ByteSize?

    @Option(parsing: .unconditional, help: "Failures in a row (network, 5xx) before giving up; each retry resumes where the server stands.")
    var retries = 5

    func validate() throws {
        guard (1...(1 << 30)).contains(chunkSize.bytes) else { throw ValidationError("--chunk-size must be 1 byte … 1G, not \(chunkSize)") }
        if let limitRate, limitRate.bytes < 1 { throw ValidationError("--limit-rate must be at least 1 byte per second") }
        guard (0...100).contains(retries) else { throw ValidationError("--retries must be 0…100, not \(retries)") }
    }
}
