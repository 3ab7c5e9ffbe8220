import FeedAccess
import ArgumentParser
import FeedCore
import Foundation

/// `feed token --user ID`: mints a bearer JWT for `feed serve --jwt-secret-file`, for development.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint a bearer token (an HS256 JWT) for feed serve, for development.",
        discussion: """
            Signs {"sub": USER, "scope": "read upload", "iat", "nbf", "exp"} with the secret of \
            --jwt-secret-file (the file `feed serve --jwt-secret-file` reads; at least 32 bytes) and \
            prints the token on stdout, with --json as {"token","user","scope","expires"}. \
            Scopes: read (GET the feed and one's own rows), upload (change one's own rows: \
            uploads, jobs, comments, likes, bookmarks; includes read), admin (everything, everyone's rows). In \
            production a team's own auth mints ES256/RS256 tokens for --jwks-file instead.
            Exit status: 64 bad option, 65 a secret under 32 bytes, 66 no such secret file.

            EXAMPLES:
              head -c 32 /dev/urandom | base64 > secret.key
              feed token --jwt-secret-file secret.key --user alice
              feed token --jwt-secret-file secret.key --user ops --scope admin --ttl 15m
              export FEED_JWT_SECRET_FILE=secret.key
              TOKEN=$(feed token --user alice)
              curl -H "Authorization: Bearer $TOKEN" localhost:8080/likes
            """
    )

    @Option(help: ArgumentHelp("File holding the HS256 secret (also $FEED_JWT_SECRET_FILE).", valueName: "file"))
    var jwtSecretFile: String?
    @Option(help: ArgumentHelp("The user id: the token's sub.", valueName: "id")) var user: String
    @Option(help: ArgumentHelp("A scope: read, upload or admin; repeat or separate with commas (default: read and upload).", valueName: "scope"))
    var scope: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("How long the token lives (seconds, or with s, m, h, d).", valueName: "time"))
    var ttl = TimeSpan(seconds: 3600)
    @Flag(help: "Print {\"token\",\"user\",\"scope\",\"expires\"}.") var json = false

    /// The scopes asked for; read and upload when none is.
    var scopes: Set<Scope> {
        get throws {
            let words = scope.flatMap { $0.split(whereSeparator: { $0 == "," || $0 == " " }) }
            for word in words where Scope(rawValue: String(word)) == nil {
                throw ValidationError("--scope \(word): not a scope; one of read, upload, admin")
            }
            return words.isEmpty ? [.read, .upload] : Scope.parse(words)
        }
    }

    func validate() throws {
        guard !user.isEmpty, user.count <= 256, !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValidationError("--user must be 1…256 characters, with no control characters")
        }
        guard (1...31_536_000).contains(ttl.seconds) else { throw ValidationError("--ttl must be 1s…365d, not \(ttl)") }
        _ = try scopes
        guard secretFile != nil else { throw ValidationError("give --jwt-secret-file FILE (or set FEED_JWT_SECRET_FILE)") }
    }

    private var secretFile: String? {
        jwtSecretFile ?? ProcessInfo.processInfo.environment["FEED_JWT_SECRET_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let keys = try await AccessKeys.load(secretFile: secretFile, jwksFile: nil)
        let now = Int64(Date().timeIntervalSince1970)
        let scopes = try scopes
        let token = try await keys.mint(user: user, scopes: scopes, ttl: ttl.seconds, now: now)
        guard json else { return try StandardStream.output.write(token + "\n") }
        let object: [String: Any] = ["token": token, "user": user, "scope": Scope.words(scopes),
                                     "expires": Date(timeIntervalSince1970: Double(now + ttl.seconds)).formatted(.iso8601)]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        try StandardStream.output.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
